/**
 * The webhook workbench over real sockets: any body sent signed through the outbox (same
 * signing, retries and log as every delivery), and each cause of a failed signature check
 * produced from a real delivery the way a merchant's mistake produces it.
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, SandboxRequestError } from '../../../src/index.js';
import {
  CHECKOUT,
  DIRECT,
  directPayment,
  headers,
  startReceiver,
  verifySignature,
  type Receiver,
  type ReceivedWebhook,
} from '../../support/app.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(options: Parameters<typeof startSandbox>[0] = {}): Promise<{ sandbox: RunningSandbox; receiver: Receiver }> {
  const receiver = await startReceiver();
  const sandbox = await startSandbox({ ticker: false, notificationUrl: receiver.url, ...options });
  cleanup.push(
    () => receiver.close(),
    () => sandbox.stop(),
  );
  return { sandbox, receiver };
}

/** A payment settled through the API: its webhook as the merchant's handler received it. */
async function settledWebhook(sandbox: RunningSandbox, receiver: Receiver): Promise<ReceivedWebhook> {
  const res = await fetch(`${sandbox.apiUrl}/transactions`, {
    method: 'POST',
    headers: headers(DIRECT),
    body: JSON.stringify(directPayment({ external_identifier: `order-${Math.random().toString(36).slice(2)}` })),
  });
  const tx = (await res.json()) as { id: string };
  await sandbox.settle(tx.id);
  return receiver.waitForMatch((hook) => (hook.body as { ll_transaction_id?: string }).ll_transaction_id === tx.id);
}

const control = async (sandbox: RunningSandbox, path: string, payload: unknown) => {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('POST /_sandbox/webhooks/send', () => {
  it('sends a JSON body as its JSON text, signed, and logs it as a delivery', async () => {
    const { sandbox, receiver } = await setup();
    const body = { merchant_transaction_id: 'captured-1', payment_status: 'SUCCEEDED', extra: { nested: [1, 2] } };
    const delivery = await sandbox.sendWebhook({ accountId: DIRECT.account_id, body });
    expect(delivery.url).toBe(receiver.url);
    expect(['queued', 'delivered']).toContain(delivery.state);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.raw).toBe(JSON.stringify(body));
    expect(hook!.verified).toBe(true);
    expect(hook!.headers.timestamp).toMatch(/^\d{14}$/);
    const logged = await sandbox.waitForDelivery((d) => d.id === delivery.id && d.state === 'delivered');
    expect(logged.body).toBe(JSON.stringify(body));
    expect(logged.reference).toBe('captured-1');
  });

  it('sends a string body byte for byte, and retries it on the sandbox clock like any delivery', async () => {
    const { sandbox, receiver } = await setup();
    receiver.respond = (n) => (n === 1 ? { status: 503, body: 'busy' } : { status: 200, body: '{"code":"200","message":"SUCCESS"}' });
    const raw = '{ "payment_status" : "SUCCEEDED",\n  "note": "caf\u00e9 \\u002d edited" }\n';
    const delivery = await sandbox.sendWebhook({ accountId: DIRECT.account_id, body: raw });
    await sandbox.waitForDelivery((d) => d.id === delivery.id && d.state === 'retrying');
    await sandbox.advanceClock(10);
    const done = await sandbox.waitForDelivery((d) => d.id === delivery.id && d.state === 'delivered');
    expect(done.attempts_count).toBe(2);
    const hooks = await receiver.waitFor(2);
    for (const hook of hooks) {
      expect(hook.raw).toBe(raw);
      expect(verifySignature(hook.raw, hook.headers.signature as string)).toBe(true);
    }
  });

  it("is sent for an account whose own clock has moved ahead, timed on that clock like the account's own webhooks", async () => {
    const { sandbox, receiver } = await setup({ ticker: true });
    await sandbox.account(DIRECT.account_id).advanceClock(30 * 86_400);
    const delivery = await sandbox.sendWebhook({ accountId: DIRECT.account_id, body: { payment_status: 'SUCCEEDED' } });
    expect(Date.parse(delivery.created_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const done = await sandbox.waitForDelivery((d) => d.id === delivery.id && d.state === 'delivered');
    expect(done.attempts_count).toBe(1);
    await receiver.waitFor(1);
  });

  it('a webhook fault asked from the control API is sent too for an account whose clock has moved ahead', async () => {
    const { sandbox, receiver } = await setup();
    await sandbox.account(DIRECT.account_id).advanceClock(86_400);
    const hook = await settledWebhook(sandbox, receiver);
    const id = (hook.body as { ll_transaction_id: string }).ll_transaction_id;
    const fault = await control(sandbox, `/transactions/${id}/webhook-faults`, { fault: 'bad_signature' });
    expect(fault.status).toBe(201);
    const copy = (fault.body.deliveries as { id: string }[])[0]!;
    // Attempted once (the receiver verifies, so it refuses the broken signature), not left queued.
    const done = await sandbox.waitForDelivery((d) => d.id === copy.id && d.state !== 'queued');
    expect(done.fault).toBe('bad_signature');
    expect(done.attempts_count).toBe(1);
  });

  it('answers the error envelope: no URL (400 at /url), a refused URL, an unknown account, no body', async () => {
    const sandbox = await startSandbox({ ticker: false });
    cleanup.push(() => sandbox.stop());
    const noUrl = await control(sandbox, '/webhooks/send', { account_id: DIRECT.account_id, body: {} });
    expect(noUrl.status).toBe(400);
    expect(JSON.stringify(noUrl.body)).toContain('"/url"');
    const refused = await control(sandbox, '/webhooks/send', { account_id: DIRECT.account_id, url: 'http://169.254.169.254/x', body: {} });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Webhook target refused');
    const unknown = await control(sandbox, '/webhooks/send', { account_id: 'nobody', url: 'http://127.0.0.1:9/x', body: {} });
    expect(unknown.status).toBe(404);
    const noBody = await control(sandbox, '/webhooks/send', { account_id: DIRECT.account_id, url: 'http://127.0.0.1:9/x' });
    expect(noBody.status).toBe(400);
    expect(noBody.body.code).toBe('bad_request');
    await expect(sandbox.sendWebhook({ accountId: DIRECT.account_id, body: {} })).rejects.toBeInstanceOf(SandboxRequestError);
  });

  it("never holds back a transaction's webhooks: another account's transaction is 400, a URL not the transaction's has a queue of its own", async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const txId = (hook.body as { ll_transaction_id: string }).ll_transaction_id;
    const dead = 'http://127.0.0.1:9/dead'; // nothing listens: every attempt fails and is retried

    // Another account naming this transaction: 400 at the body's ll_transaction_id, nothing queued.
    const foreign = await control(sandbox, '/webhooks/send', {
      account_id: CHECKOUT.account_id,
      url: dead,
      body: { ll_transaction_id: txId, original_transaction_id: txId, payment_status: 'REFUNDED' },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({
      type: 'error',
      code: 'bad_request',
      details: [expect.objectContaining({ pointer: '/body/ll_transaction_id', location: 'body' })],
    });

    // The owner sending to a dead URL: its own queue, failing and retrying on its own.
    const stuck = await sandbox.sendWebhook({
      accountId: DIRECT.account_id,
      url: dead,
      body: { ll_transaction_id: txId, original_transaction_id: txId, payment_status: 'REFUNDED' },
    });
    await sandbox.waitForDelivery((d) => d.id === stuck.id && d.state === 'retrying');
    // The transaction's own refund webhook goes out at once, not after the dead URL's retries.
    const refund = await fetch(`${sandbox.apiUrl}/transactions/${txId}/refunds`, { method: 'POST', headers: headers(DIRECT) });
    expect(refund.status).toBe(201);
    const refundHook = await receiver.waitForMatch((h) => 'refund_data' in (h.body as object), 5_000);
    expect(refundHook.verified).toBe(true);
    const still = await sandbox.waitForDelivery((d) => d.id === stuck.id);
    expect(still.state).toBe('retrying');
  });
});

describe('the workbench in the OpenAPI document', () => {
  it('declares both control routes with their operation ids', async () => {
    const { sandbox } = await setup();
    const doc = (await (await fetch(`${sandbox.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const paths = Object.entries(doc.paths);
    const op = (suffix: string) => paths.find(([path]) => path.endsWith(suffix))?.[1].post?.operationId;
    expect(op('/_sandbox/webhooks/send')).toBe('sendWebhook');
    expect(op('/_sandbox/signatures/explain')).toBe('explainSignature');
  });
});

describe('POST /_sandbox/signatures/explain', () => {
  it('valid: the exact bytes and header of a real delivery', async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const answer = await sandbox.explainSignature({ body: hook.raw, signature: hook.headers.signature as string });
    expect(answer.cause).toBe('valid');
    expect(answer.valid).toBe(true);
    expect(answer.delivery_id).toBeDefined();
  });

  it('body_reserialized: the handler verified json.dumps(json.loads(raw)), with the first differing byte', async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const reencoded = execFileSync('python3', ['-c', 'import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read())))'], {
      input: hook.raw,
    }).toString();
    const answer = await sandbox.explainSignature({ body: reencoded, signature: hook.headers.signature as string });
    expect(answer.cause).toBe('body_reserialized');
    const offset = [...hook.raw].findIndex((ch, i) => reencoded[i] !== ch);
    expect(answer.first_difference).toMatchObject({ offset });
    expect(answer.first_difference!.received.startsWith(' ')).toBe(true);
    expect(answer.fix).toMatch(/raw request body/);
  });

  it('body_reserialized: a proxy that pretty-printed the body on its way', async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const proxied = JSON.stringify(JSON.parse(hook.raw), null, 2);
    const answer = await sandbox.explainSignature({ body: Buffer.from(proxied), signature: hook.headers.signature as string });
    expect(answer.cause).toBe('body_reserialized');
  });

  it('body_changed: a body-size limit cut the body short, or a proxy rewrote a value', async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const cut = await sandbox.explainSignature({ body: hook.raw.slice(0, 40), signature: hook.headers.signature as string });
    expect(cut.cause).toBe('body_changed');
    expect(cut.detail).toMatch(/cut short at byte 40/);
    const rewritten = hook.raw.replace(/"payment_status":"SUCCEEDED"/, '"payment_status":"succeeded"');
    const changed = await sandbox.explainSignature({ body: rewritten, signature: hook.headers.signature as string });
    expect(changed.cause).toBe('body_changed');
    expect(changed.first_difference!.sent.startsWith('SUCCEEDED')).toBe(true);
  });

  it('signature_encoding: the handler hex-encoded the signature, or kept the quotes', async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const signature = hook.headers.signature as string;
    const hex = await sandbox.explainSignature({ body: hook.raw, signature: Buffer.from(signature, 'base64').toString('hex') });
    expect(hex.cause).toBe('signature_encoding');
    expect(hex.detail).toMatch(/hex/);
    const quoted = await sandbox.explainSignature({ body: hook.raw, signature: `"${signature}"\n` });
    expect(quoted.cause).toBe('signature_encoding');
    const url = await sandbox.explainSignature({ body: hook.raw, signature: Buffer.from(signature, 'base64').toString('base64url') });
    expect(url.cause).toBe('signature_encoding');
  });

  it('wrong_key: the handler loaded another PEM', async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const { publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const answer = await sandbox.explainSignature({ body: hook.raw, signature: hook.headers.signature as string, publicKey });
    expect(answer.cause).toBe('wrong_key');
    const right = await sandbox.explainSignature({
      body: hook.raw,
      signature: hook.headers.signature as string,
      publicKey: sandbox.credentials.webhookPublicKeyPem,
    });
    expect(right.cause).toBe('valid');
  });

  it('hmac_vs_rsa: an HMAC compared where the sandbox signs with RSA, and an RSA check where it signs with HMAC', async () => {
    const { sandbox, receiver } = await setup();
    const hook = await settledWebhook(sandbox, receiver);
    const computed = createHmac('sha256', 'my-secret').update(hook.raw).digest('hex');
    const answer = await sandbox.explainSignature({ body: hook.raw, signature: computed });
    expect(answer.cause).toBe('hmac_vs_rsa');
    expect(answer.fix).toMatch(/public key/);

    const hmacReceiver = await startReceiver();
    const hmac = await startSandbox({ ticker: false, notificationUrl: hmacReceiver.url, webhookSigning: 'hmac', webhookSecret: 's3cret' });
    cleanup.push(
      () => hmacReceiver.close(),
      () => hmac.stop(),
    );
    const hmacHook = await settledWebhook(hmac, hmacReceiver);
    const rsaCheck = await hmac.explainSignature({
      body: hmacHook.raw,
      signature: hmacHook.headers.signature as string,
      publicKey: hmac.credentials.webhookPublicKeyPem,
    });
    expect(rsaCheck.cause).toBe('hmac_vs_rsa');
    const fine = await hmac.explainSignature({ body: hmacHook.raw, signature: hmacHook.headers.signature as string });
    expect(fine.cause).toBe('valid');
  });

  it('not_from_sandbox: a forged delivery; and a bad_signature fault is named as such', async () => {
    const { sandbox, receiver } = await setup();
    const forged = await sandbox.explainSignature({ body: '{"payment_status":"SUCCEEDED"}', signature: 'AAAA' });
    expect(forged.cause).toBe('not_from_sandbox');
    expect(forged.delivery_id).toBeUndefined();
    const hook = await settledWebhook(sandbox, receiver);
    const txId = (hook.body as { ll_transaction_id: string }).ll_transaction_id;
    const fault = await control(sandbox, `/transactions/${txId}/webhook-faults`, { fault: 'bad_signature' });
    const faultId = (fault.body.deliveries as { id: string }[])[0]!.id;
    const bad = await receiver.waitForMatch((h) => !h.verified);
    const answer = await sandbox.explainSignature({ body: bad.raw, signature: bad.headers.signature as string, deliveryId: faultId });
    expect(answer.cause).toBe('not_from_sandbox');
    expect(answer.detail).toMatch(/bad_signature/);
  });

  it('answers the error envelope for bad input', async () => {
    const { sandbox } = await setup();
    const both = await control(sandbox, '/signatures/explain', { body: '{}', body_base64: 'e30=', signature: 'x' });
    expect(both.status).toBe(400);
    const noSig = await control(sandbox, '/signatures/explain', { body: '{}' });
    expect(noSig.status).toBe(400);
    const badKey = await control(sandbox, '/signatures/explain', { body: '{}', signature: 'x', public_key: 'not a key' });
    expect(badKey.status).toBe(400);
    expect(JSON.stringify(badKey.body)).toContain('/public_key');
    const unknown = await control(sandbox, '/signatures/explain', { body: '{}', signature: 'x', delivery_id: 'nope' });
    expect(unknown.status).toBe(404);
  });
});
