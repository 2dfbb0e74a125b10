// Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem node handler.mjs
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const port = Number(process.env.PORT ?? 3000);
const secret = process.env.PAYMENT_SANDBOX_WEBHOOK_SECRET; // only with --webhook-signing hmac
const publicKey = secret ? null : readFileSync(process.env.PAYMENT_SANDBOX_PUBLIC_KEY, 'utf8');
const handled = new Set(); // (ll_transaction_id, status) pairs already processed: your database in production
const orders = new Map(); // merchant_transaction_id -> { payment_status, refunded_amount }: your orders table

// What this build believes about an order, for check-webhooks --state-url http://127.0.0.1:$PORT/orders
function orderOf(id) {
  if (!orders.has(id)) orders.set(id, { payment_status: null, refunded_amount: 0 });
  return orders.get(id);
}

// Applies a verified event once: a known outcome sets the order's status, a refund adds its amount.
function apply(event) {
  if (event.refund_data) orderOf(event.original_transaction_id).refunded_amount += event.refund_data.refund_amount;
  const status = event.payment_data?.payment_status;
  if (status === 'SUCCEEDED' || status === 'FAILED') orderOf(event.merchant_transaction_id).payment_status = status;
  // Any other status (a later version may add some) is acknowledged and not taken as paid.
}

function verified(raw, signature) {
  if (secret) {
    // HMAC variant: hex HMAC-SHA256 of the raw body
    const expected = createHmac('sha256', secret).update(raw).digest();
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  return verify('sha256', raw, publicKey, Buffer.from(signature, 'base64')); // RSA-SHA256, base64
}

createServer((req, res) => {
  if (req.method === 'GET' && req.url.startsWith('/orders/')) {
    const order = orders.get(decodeURIComponent(req.url.slice('/orders/'.length))) ?? { payment_status: null, refunded_amount: 0 };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(order));
    return;
  }
  if (req.method !== 'POST' || req.url !== '/webhooks') {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks); // the bytes received: never verify re-serialized JSON
    const signature = req.headers.signature;
    if (typeof signature !== 'string' || !verified(raw, signature)) {
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(raw.toString('utf8'));
    const status = event.payment_data?.payment_status ?? event.refund_data?.refund_status;
    // One transaction can move PROCESSING -> SUCCEEDED: a repeat is the same id with the same status.
    const key = `${event.ll_transaction_id} ${status}`;
    if (handled.has(key)) {
      console.log(`already handled: ${key}`);
    } else {
      handled.add(key);
      apply(event);
      console.log(`webhook verified: ${status} ${event.ll_transaction_id} (${event.merchant_transaction_id})`);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"code":"200","message":"SUCCESS"}');
  });
}).listen(port, '127.0.0.1', () => console.log(`webhook handler on http://127.0.0.1:${port}/webhooks`));
