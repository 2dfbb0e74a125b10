<?php
// Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem php -S 127.0.0.1:${PORT:-3000} handler.php
if ($_SERVER['REQUEST_METHOD'] !== 'POST' || $_SERVER['REQUEST_URI'] !== '/webhooks') {
    http_response_code(404);
    exit;
}
$raw = file_get_contents('php://input'); // the bytes received: never verify re-encoded JSON
$signature = $_SERVER['HTTP_SIGNATURE'] ?? '';
$secret = getenv('PAYMENT_SANDBOX_WEBHOOK_SECRET'); // only with --webhook-signing hmac
if ($secret) { // HMAC variant: hex HMAC-SHA256 of the raw body
    $verified = hash_equals(hash_hmac('sha256', $raw, $secret), $signature);
} else { // RSA-SHA256 (PKCS #1 v1.5), base64
    $publicKey = openssl_pkey_get_public(file_get_contents(getenv('PAYMENT_SANDBOX_PUBLIC_KEY')));
    $verified = openssl_verify($raw, (string) base64_decode($signature, true), $publicKey, OPENSSL_ALGO_SHA256) === 1;
}
if ($signature === '' || !$verified) {
    http_response_code(401);
    exit;
}
$event = json_decode($raw, true, 512, JSON_THROW_ON_ERROR);
$id = $event['ll_transaction_id'];
// Each ll_transaction_id once: a marker file here, a unique key in your database in production.
$marker = @fopen(sys_get_temp_dir() . '/webhook-handled-' . hash('sha256', $id), 'x');
if ($marker === false) {
    error_log("already handled: $id");
} else {
    $status = $event['payment_data']['payment_status'] ?? $event['refund_data']['refund_status'];
    error_log("webhook verified: $status $id ({$event['merchant_transaction_id']})");
}
header('Content-Type: application/json');
echo '{"code":"200","message":"SUCCESS"}';
