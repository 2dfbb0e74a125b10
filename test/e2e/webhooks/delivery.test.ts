/**
 * Payment lifecycle and signed webhooks end to end: a real sandbox on a socket, a real
 * merchant receiver on loopback that verifies every signature with node's crypto and the
 * published PEM, exact bodies, retries on the sandbox clock, resend, durability.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { ACK, CHECKOUT, DIRECT, directPayment, headers, startReceiver, type Receiver } from '../../support/app.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(options: Parameters<typeof startServer>[0] = {}): Promise<{ server: RunningServer; receiver: Receiver }> {
  const receiver = await startReceiver();
  const server = await startServer({ port: 0, ticker: false, notificationUrl: receiver.url, ...options });
  cleanup.push(
    () => receiver.close(),
    () => server.stop(),
  );
  return { server, receiver };
}

type Json = Record<string, unknown>;
const api = async (
  server: RunningServer,
  method: string,
  path: string,
  payload?: unknown,
  creds = DIRECT,
): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: headers(creds),
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const control = async (server: RunningServer, method: string, path: string, payload?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${server.url}/_sandbox${path}`, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const createTx = async (server: RunningServer, overrides: Json = {}): Promise<Json> => {
  const res = await api(server, 'POST', '/v4/transactions', directPayment(overrides));
  expect(res.status).toBe(201);
  return res.body;
};
const deliveriesOf = async (server: RunningServer): Promise<Json[]> => (await control(server, 'GET', '/deliveries')).body.items as Json[];
const utcCompact = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

describe('payment webhooks', () => {
  it('settle sends the exact SUCCEEDED body, signed over the raw bytes, with timestamp and timezone', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server, { amount: 1050, currency: 'USD', external_identifier: 'order-42' });
    const before = new Date();
    const settled = await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    expect(settled.status).toBe(200);
    expect(settled.body.status).toBe('SUCCEEDED');
    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
    expect(hook!.headers.timezone).toBe('UTC');
    expect(hook!.headers.timestamp).toMatch(/^\d{14}$/);
    expect(Number(hook!.headers.timestamp)).toBeGreaterThanOrEqual(Number(utcCompact(before)) - 1);
    const pd = (hook!.body as { payment_data: Json }).payment_data;
    expect(hook!.body).toEqual({
      ll_transaction_id: tx.id,
      merchant_transaction_id: 'order-42',
      payment_data: {
        account_date: String(pd.payment_time).slice(0, 8),
        exchange_rate: '1.000000',
        payment_amount: '10.50',
        payment_currency_code: 'USD',
        payment_status: 'SUCCEEDED',
        payment_time: expect.stringMatching(/^\d{14}$/),
        settlement_amount: '10.50',
        settlement_currency_code: 'USD',
      },
    });
    // Key order as in the spec.
    expect(Object.keys(hook!.body as Json)).toEqual(['ll_transaction_id', 'merchant_transaction_id', 'payment_data']);
    const got = await api(server, 'GET', `/v4/transactions/${String(tx.id)}`);
    expect(got.body.status).toBe('SUCCEEDED');
    const [delivery] = await deliveriesOf(server);
    expect(delivery).toMatchObject({ status: 'delivered', attempts_count: 1, kind: 'payment', resource_id: tx.id });
  });

  it.each([
    ['JPY', 500, '500'],
    ['BHD', 1050, '1.050'],
    ['EUR', 5, '0.05'],
  ])('fail sends FAILED with %s amounts by ISO 4217 exponent', async (currency, amount, major) => {
    const { server, receiver } = await setup();
    const tx = await createTx(server, { amount, currency, external_identifier: undefined });
    await control(server, 'POST', `/transactions/${String(tx.id)}/fail`);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
    expect(hook!.body).toMatchObject({
      ll_transaction_id: tx.id,
      merchant_transaction_id: tx.id,
      payment_data: {
        payment_amount: major,
        settlement_amount: major,
        payment_currency_code: currency,
        settlement_currency_code: currency,
        payment_status: 'FAILED',
      },
    });
  });

  it('--webhook-timezone puts timestamp, payment_time and account_date in that zone', async () => {
    const { server, receiver } = await setup({ webhookTimezone: 'Asia/Shanghai' });
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.headers.timezone).toBe('Asia/Shanghai');
    const shanghai = utcCompact(new Date(Date.now() + 8 * 3600 * 1000));
    expect(Math.abs(Number(hook!.headers.timestamp) - Number(shanghai))).toBeLessThan(100); // within a minute
    const pd = (hook!.body as { payment_data: Json }).payment_data;
    expect(Math.abs(Number(pd.payment_time) - Number(shanghai))).toBeLessThan(100);
    expect(pd.account_date).toBe(String(pd.payment_time).slice(0, 8));
  });

  it('hmac mode signs with the hex HMAC-SHA256 of the raw body', async () => {
    const { server, receiver } = await setup({ webhookSigning: 'hmac', webhookSecret: 'whsec_test' });
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.headers.signature).toBe(createHmac('sha256', 'whsec_test').update(hook!.raw).digest('hex'));
  });

  it('a second outcome is 409, changes nothing and sends nothing', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await receiver.waitFor(1);
    const again = await control(server, 'POST', `/transactions/${String(tx.id)}/fail`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ type: 'error', code: 'invalid_state', message: expect.stringMatching(/already SUCCEEDED/) });
    const twice = await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    expect(twice.status).toBe(409);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(server)).toHaveLength(1);
    expect((await api(server, 'GET', `/v4/transactions/${String(tx.id)}`)).body.status).toBe('SUCCEEDED');
  });
});

describe('delivery retries', () => {
  it('a receiver that fails twice then acknowledges gets one delivery marked delivered after three attempts, identical bodies', async () => {
    const { server, receiver } = await setup();
    receiver.respond = (n) => (n <= 2 ? { status: 500, body: 'oops' } : ACK);
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await receiver.waitFor(1);
    let [d] = await deliveriesOf(server);
    await new Promise((r) => setTimeout(r, 50));
    [d] = await deliveriesOf(server);
    expect(d).toMatchObject({ status: 'pending', attempts_count: 1 });
    // Back-off: the 2nd attempt is due 10 s later on the sandbox clock, the 3rd 20 s after that.
    await control(server, 'POST', '/clock/advance', { seconds: 9 });
    expect(receiver.received).toHaveLength(1);
    await control(server, 'POST', '/clock/advance', { seconds: 1 });
    expect(receiver.received).toHaveLength(2);
    await control(server, 'POST', '/clock/advance', { seconds: 20 });
    expect(receiver.received).toHaveLength(3);
    await control(server, 'POST', '/clock/advance', { seconds: 3600 });
    expect(receiver.received).toHaveLength(3);
    const all = await deliveriesOf(server);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: 'delivered', attempts_count: 3 });
    const attempts = all[0]!.attempts as Json[];
    expect(attempts.map((a) => [a.response_status, a.ok])).toEqual([
      [500, false],
      [500, false],
      [200, true],
    ]);
    expect(attempts[0]!.error).toMatch(/HTTP 500/);
    expect(new Set(receiver.received.map((h) => h.raw)).size).toBe(1);
    expect(receiver.received.every((h) => h.verified)).toBe(true);
    expect((attempts[0]!.request_headers as Json).signature).toBe(receiver.received[0]!.headers.signature);
  });

  it('a clock advance first lets a delivery already under way finish, then runs its retry in time', async () => {
    const { server, receiver } = await setup();
    receiver.respond = (n) => (n === 1 ? { status: 500, body: '', delayMs: 300 } : ACK);
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`); // attempt 1 starts now
    // Attempt 1 fails 0.3 s later; its retry is due 10 s after that, inside this advance.
    await control(server, 'POST', '/clock/advance', { seconds: 11 });
    expect(receiver.received).toHaveLength(2);
    const [d] = await deliveriesOf(server);
    expect(d).toMatchObject({ status: 'delivered', attempts_count: 2 });
  });

  it('a merchant that does not answer in time (10 s; shortened here) is retried', async () => {
    const { server, receiver } = await setup({ deliveryTimeoutMs: 300 });
    receiver.respond = (n) => (n === 1 ? { ...ACK, delayMs: 1000 } : ACK);
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await control(server, 'POST', '/clock/advance', { seconds: 11 });
    const [d] = await deliveriesOf(server);
    expect(d).toMatchObject({ status: 'delivered', attempts_count: 2 });
    expect((d!.attempts as Json[])[0]).toMatchObject({ ok: false, response_status: null, error: 'no answer within 0.3 s' });
  });

  it('a 200 with the wrong body is retried', async () => {
    const { server, receiver } = await setup();
    receiver.respond = (n) => (n === 1 ? { status: 200, body: '{"ok":true}' } : ACK);
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await receiver.waitFor(1);
    await control(server, 'POST', '/clock/advance', { seconds: 10 });
    const [d] = await deliveriesOf(server);
    expect(d).toMatchObject({ status: 'delivered', attempts_count: 2 });
    expect((d!.attempts as Json[])[0]!.error).toMatch(/code.*200.*SUCCESS/);
  });

  it('a refused connection is retried with back-off and gives up after the last attempt; resend sends it again', async () => {
    const gone = await startReceiver();
    await gone.close(); // nothing listens on its port any more
    const server = await startServer({ port: 0, ticker: false, notificationUrl: gone.url });
    cleanup.push(() => server.stop());
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await control(server, 'POST', '/clock/advance', { seconds: 7 * 24 * 3600 });
    const [d] = await deliveriesOf(server);
    expect(d).toMatchObject({ status: 'failed', attempts_count: 16, next_attempt_at: null });
    const attempts = d!.attempts as Json[];
    expect(attempts[0]!.error).toMatch(/ECONNREFUSED/);
    const gaps = attempts.slice(1).map((a, i) => (Date.parse(String(a.at)) - Date.parse(String(attempts[i]!.at))) / 1000);
    expect(gaps.slice(0, 5).map(Math.round)).toEqual([10, 20, 40, 80, 160]);
    expect(Math.round(Math.max(...gaps))).toBe(6 * 3600);
    const resent = await control(server, 'POST', `/deliveries/${String(d!.id)}/resend`);
    expect(resent.status).toBe(202);
    await control(server, 'POST', '/clock/advance', { seconds: 1 });
    const [after] = await deliveriesOf(server);
    expect(after!.attempts_count).toBe(17);
  });

  it('resend delivers the same body again with a fresh timestamp and a valid signature', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await receiver.waitFor(1);
    await control(server, 'POST', '/clock/advance', { seconds: 3600 });
    const [d] = await deliveriesOf(server);
    const res = await control(server, 'POST', `/deliveries/${String(d!.id)}/resend`);
    expect(res.status).toBe(202);
    const hooks = await receiver.waitFor(2);
    expect(hooks[1]!.raw).toBe(hooks[0]!.raw);
    expect(hooks[1]!.verified).toBe(true);
    expect(Number(hooks[1]!.headers.timestamp) - Number(hooks[0]!.headers.timestamp)).toBeGreaterThanOrEqual(10000); // an hour later
    expect((await control(server, 'POST', '/deliveries/nope/resend')).status).toBe(404);
  });

  it('one slow merchant server does not hold up deliveries to another', async () => {
    const { server, receiver: slow } = await setup();
    const fast = await startReceiver();
    cleanup.push(() => fast.close());
    slow.respond = () => ({ ...ACK, delayMs: 1500 });
    const a = await createTx(server, { notification_url: slow.url });
    const b = await createTx(server, { notification_url: fast.url });
    await control(server, 'POST', `/transactions/${String(a.id)}/settle`);
    await slow.waitFor(1);
    const started = Date.now();
    await control(server, 'POST', `/transactions/${String(b.id)}/settle`);
    await fast.waitFor(1, 1000);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('refunds', () => {
  it('partial refunds add up, the remainder is the default, over-refunding is 400 at /amount; each sends the refund webhook', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server, { amount: 1000, currency: 'USD', external_identifier: 'order-7' });
    const early = await api(server, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, { amount: 100 });
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/PENDING/);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    const r1 = await api(server, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, {
      amount: 300,
      reason: 'damaged',
      external_identifier: 'refund-1',
    });
    expect(r1.status).toBe(201);
    expect(r1.body).toMatchObject({
      type: 'refund',
      status: 'SUCCESS',
      amount: 300,
      currency: 'USD',
      transaction_id: tx.id,
      reason: 'damaged',
    });
    const over = await api(server, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, { amount: 701 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'bad_request', details: [{ pointer: '/amount', location: 'body' }] });
    const rest = await api(server, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, {});
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe(700);
    const none = await api(server, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, {});
    expect(none.status).toBe(400);
    const got = await api(server, 'GET', `/v4/transactions/${String(tx.id)}`);
    expect(got.body).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 1000 });
    const list = await api(server, 'GET', `/v4/transactions/${String(tx.id)}/refunds`);
    expect((list.body.items as Json[]).map((r) => r.amount)).toEqual([700, 300]);

    const hooks = await receiver.waitFor(3);
    expect(hooks.every((h) => h.verified)).toBe(true);
    const refundHook = hooks.find((h) => (h.body as Json).merchant_transaction_id === 'refund-1')!;
    const rd = (refundHook.body as { refund_data: Json }).refund_data;
    expect(refundHook.body).toEqual({
      ll_transaction_id: r1.body.id,
      merchant_transaction_id: 'refund-1',
      original_transaction_id: 'order-7',
      refund_data: {
        account_date: String(rd.refund_time).slice(0, 8),
        actual_refund_amount: 300,
        actual_refund_currency_code: 'USD',
        reason: 'damaged',
        refund_amount: 300,
        refund_currency_code: 'USD',
        refund_status: 'SUCCESS',
        refund_time: expect.stringMatching(/^\d{14}$/),
        settlement_currency_code: 'USD',
      },
    });
    const second = hooks.find((h) => (h.body as Json).ll_transaction_id === rest.body.id)!;
    expect((second.body as Json).merchant_transaction_id).toBe(rest.body.id);
  });

  it('the control API refunds as if from the console', async () => {
    const { server, receiver } = await setup();
    const tx = await createTx(server, { amount: 900 });
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    const res = await control(server, 'POST', `/transactions/${String(tx.id)}/refund`, { amount: 250 });
    expect(res.status).toBe(201);
    expect(res.body.amount).toBe(250);
    await receiver.waitFor(2);
    expect((await api(server, 'GET', `/v4/transactions/${String(tx.id)}`)).body.refunded_amount).toBe(250);
    expect((await control(server, 'POST', '/transactions/nope/refund', {})).status).toBe(404);
  });
});

describe('durability', () => {
  it('an accepted outcome is never lost: pending deliveries survive a restart with a --db file and go out after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-durable-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    receiver.respond = () => ({ status: 503, body: 'down' });
    const first = await startServer({ port: 0, ticker: false, db, notificationUrl: receiver.url });
    const tx = await createTx(first);
    await control(first, 'POST', `/transactions/${String(tx.id)}/settle`);
    await receiver.waitFor(1);
    await first.stop();
    receiver.respond = () => ACK;
    const second = await startServer({ port: 0, ticker: false, db, notificationUrl: receiver.url });
    cleanup.push(() => second.stop());
    await control(second, 'POST', '/clock/advance', { seconds: 10 });
    const hooks = await receiver.waitFor(2);
    expect(hooks[1]!.raw).toBe(hooks[0]!.raw);
    const [d] = await deliveriesOf(second);
    expect(d).toMatchObject({ status: 'delivered', attempts_count: 2 });
  });

  it('the real-time ticker retries on its own when the clock is not advanced by hand', async () => {
    const { server, receiver } = await setup({ ticker: true });
    receiver.respond = (n) => (n === 1 ? { status: 500, body: '' } : ACK);
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await receiver.waitFor(1);
    // The retry is due in 10 s of sandbox time; moving the clock 9.5 s leaves half a second of real time.
    await control(server, 'POST', '/clock/advance', { seconds: 9.5 });
    await receiver.waitFor(2, 5000);
  });
});

describe('checkout transactions', () => {
  it('settle works for checkout accounts too and the webhook goes to notification_url', async () => {
    const { server } = await setup();
    const own = await startReceiver();
    cleanup.push(() => own.close());
    const res = await api(
      server,
      'POST',
      '/v4/transactions',
      { amount: 100, currency: 'EUR', return_url: 'https://shop.example/ok', notification_url: own.url },
      CHECKOUT,
    );
    expect(res.status).toBe(201);
    await control(server, 'POST', `/transactions/${String(res.body.id)}/settle`);
    const [hook] = await own.waitFor(1);
    expect(hook!.verified).toBe(true);
  });
});

describe('the change feed', () => {
  it('streams state changes and delivery attempts as server-sent events', async () => {
    const { server, receiver } = await setup();
    const controller = new AbortController();
    const res = await fetch(`${server.url}/_sandbox/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const tx = await createTx(server);
    await control(server, 'POST', `/transactions/${String(tx.id)}/settle`);
    await receiver.waitFor(1);
    const deadline = Date.now() + 5000;
    while (!text.includes('delivery.attempted') && Date.now() < deadline) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('event: ready');
    expect(text).toContain('"type":"transaction.created"');
    expect(text).toContain('"type":"transaction.updated"');
    expect(text).toContain('"type":"delivery.attempted"');
  });
});
