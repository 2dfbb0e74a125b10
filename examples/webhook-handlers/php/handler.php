<?php
// Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem php -S 127.0.0.1:${PORT:-3000} handler.php
// Orders: a JSON file each here, your orders table in production.
function order_file(string $id): string
{
    return sys_get_temp_dir() . '/webhook-order-' . hash('sha256', $id) . '.json';
}
// What this build believes, for check-webhooks --state-url http://127.0.0.1:$PORT/orders
if ($_SERVER['REQUEST_METHOD'] === 'GET' && str_starts_with($_SERVER['REQUEST_URI'], '/orders/')) {
    $file = order_file(rawurldecode(substr($_SERVER['REQUEST_URI'], strlen('/orders/'))));
    header('Content-Type: application/json');
    echo is_file($file) ? file_get_contents($file) : '{"payment_status":null,"refunded_amount":0}';
    exit;
}
// Applies a verified event once: a known outcome sets the order's status, a refund adds its amount.
function apply_event(array $event): void
{
    $refund = $event['refund_data'] ?? null;
    $status = $event['payment_data']['payment_status'] ?? null;
    if ($refund === null && $status !== 'SUCCEEDED' && $status !== 'FAILED') {
        return; // any other status is acknowledged and not taken as paid
    }
    $handle = fopen(order_file($refund ? $event['original_transaction_id'] : $event['merchant_transaction_id']), 'c+');
    flock($handle, LOCK_EX);
    $order = json_decode(stream_get_contents($handle) ?: '{"payment_status":null,"refunded_amount":0}', true);
    if ($refund) {
        $order['refunded_amount'] += $refund['refund_amount'];
    } else {
        $order['payment_status'] = $status;
    }
    ftruncate($handle, 0);
    rewind($handle);
    fwrite($handle, json_encode($order));
    fclose($handle);
}
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
$status = $event['payment_data']['payment_status'] ?? $event['refund_data']['refund_status'];
// Each (ll_transaction_id, status) pair once: one transaction can move PROCESSING -> SUCCEEDED.
// A marker file here, a unique key in your database in production.
$marker = @fopen(sys_get_temp_dir() . '/webhook-handled-' . hash('sha256', "$id $status"), 'x');
if ($marker === false) {
    error_log("already handled: $id $status");
} else {
    apply_event($event);
    error_log("webhook verified: $status $id ({$event['merchant_transaction_id']})");
}
header('Content-Type: application/json');
echo '{"code":"200","message":"SUCCESS"}';
