# Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem python3 handler.py
import base64, binascii, hashlib, hmac, json, os, urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

PORT = int(os.environ.get("PORT", "3000"))
SECRET = os.environ.get("PAYMENT_SANDBOX_WEBHOOK_SECRET")  # only with --webhook-signing hmac
if not SECRET:
    with open(os.environ["PAYMENT_SANDBOX_PUBLIC_KEY"], "rb") as pem:
        PUBLIC_KEY = serialization.load_pem_public_key(pem.read())
handled = set()  # (ll_transaction_id, status) pairs already processed: your database in production
orders = {}  # merchant_transaction_id -> {payment_status, refunded_amount}: your orders table


def order_of(order_id: str) -> dict:
    return orders.setdefault(order_id, {"payment_status": None, "refunded_amount": 0})


def apply(event: dict) -> None:
    """Applies a verified event once: a known outcome sets the order's status, a refund adds its amount."""
    if event.get("refund_data"):
        order_of(event["original_transaction_id"])["refunded_amount"] += event["refund_data"]["refund_amount"]
    status = (event.get("payment_data") or {}).get("payment_status")
    if status in ("SUCCEEDED", "FAILED"):  # any other status is acknowledged and not taken as paid
        order_of(event["merchant_transaction_id"])["payment_status"] = status


def verified(raw: bytes, signature: str) -> bool:
    if SECRET:  # HMAC variant: hex HMAC-SHA256 of the raw body
        expected = hmac.new(SECRET.encode(), raw, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected.encode(), signature.encode())
    try:  # RSA-SHA256 (PKCS #1 v1.5), base64
        PUBLIC_KEY.verify(base64.b64decode(signature, validate=True), raw, padding.PKCS1v15(), hashes.SHA256())
        return True
    except (InvalidSignature, binascii.Error):
        return False


class Webhooks(BaseHTTPRequestHandler):
    def do_GET(self):  # what this build believes, for check-webhooks --state-url http://127.0.0.1:$PORT/orders
        if not self.path.startswith("/orders/"):
            return self.send_error(404)
        order_id = urllib.parse.unquote(self.path[len("/orders/"):])
        self.answer(json.dumps(orders.get(order_id, {"payment_status": None, "refunded_amount": 0})).encode())

    def answer(self, body: bytes):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path != "/webhooks":
            return self.send_error(404)
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # the bytes received
        signature = self.headers.get("signature")
        if not signature or not verified(raw, signature):
            return self.send_error(401)
        event = json.loads(raw)
        data = event.get("payment_data") or event.get("refund_data")
        status = data.get("payment_status") or data.get("refund_status")
        # One transaction can move PROCESSING -> SUCCEEDED: a repeat is the same id with the same status.
        key = (event["ll_transaction_id"], status)
        if key in handled:
            print("already handled:", *key, flush=True)
        else:
            handled.add(key)
            apply(event)
            print(f"webhook verified: {status} {event['ll_transaction_id']} ({event['merchant_transaction_id']})", flush=True)
        self.answer(b'{"code":"200","message":"SUCCESS"}')


print(f"webhook handler on http://127.0.0.1:{PORT}/webhooks", flush=True)
HTTPServer(("127.0.0.1", PORT), Webhooks).serve_forever()
