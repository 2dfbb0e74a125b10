// A merchant's test file, run with `node --test` in an empty project where only the packed
// payment-sandbox tarball is installed (production dependencies only).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { startSandbox } from 'payment-sandbox';
import { verifyWebhook } from 'payment-sandbox/webhooks';

test('startSandbox and verifyWebhook end to end', async (t) => {
  const received = [];
  const merchant = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
    });
  });
  await new Promise((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  t.after(() => merchant.close());

  const sandbox = await startSandbox({ notificationUrl: `http://127.0.0.1:${merchant.address().port}/webhooks` });
  t.after(() => sandbox.stop());

  const res = await fetch(`${sandbox.apiUrl}/transactions`, {
    method: 'POST',
    headers: { ...sandbox.credentials.direct.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: 1050,
      currency: 'USD',
      description: 'Order 1001',
      external_identifier: 'order-1001',
      customer: { email: 'jane@example.com', name: 'Jane Doe' },
      payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
      browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'node:test', user_device: 'desktop' },
    }),
  });
  assert.equal(res.status, 201);
  const tx = await res.json();
  await sandbox.settle(tx.id);
  const delivery = await sandbox.waitForDelivery((d) => d.resource_id === tx.id && d.status === 'delivered');
  assert.equal(JSON.parse(delivery.body).payment_data.payment_status, 'SUCCEEDED');

  assert.equal(received.length, 1);
  const publicKey = sandbox.credentials.webhookPublicKeyPem;
  assert.equal(verifyWebhook({ body: received[0].raw, headers: received[0].headers, publicKey }), true);
  assert.equal(verifyWebhook({ body: Buffer.from('{}'), headers: received[0].headers, publicKey }), false);
});
