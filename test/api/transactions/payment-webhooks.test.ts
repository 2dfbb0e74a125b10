/**
 * Payment and refund webhooks through the app, at a verifying in-memory receiver: amounts by
 * ISO 4217 exponent, the timezone of the stamps, HMAC signing, a second outcome that sends nothing, retries on the
 * sandbox clock (a 500 twice, a 200 with the wrong body), resend, refunds and their webhooks,
 * checkout accounts, and pending deliveries that survive a restart with a --db file. What needs
 * the wire (the exact bytes signed, time limits, refused connections, slow servers, the ticker,
 * the event stream) is in e2e/webhooks/delivery.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../../src/core/config.js';
import { ACK, CHECKOUT, DIRECT, directPayment, headers, testApp } from '../../support/app.js';
import { appWithReceiver, memoryWebhooks, recordedAttempts } from '../../support/memory-receiver.js';

type Json = Record<string, unknown>;
type App = ReturnType<typeof testApp>['app'];

const api = async (app: App, method: string, path: string, payload?: unknown, creds = DIRECT): Promise<{ status: number; body: Json }> => {
  const res = await app.request(path, {
    method,
    headers: headers(creds),
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const control = async (app: App, method: string, path: string, payload?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await app.request(`/_sandbox${path}`, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const createTx = async (app: App, overrides: Json = {}): Promise<Json> => {
  const res = await api(app, 'POST', '/v4/transactions', directPayment(overrides));
  expect(res.status).toBe(201);
  return res.body;
};
const deliveriesOf = async (app: App): Promise<Json[]> => (await control(app, 'GET', '/deliveries')).body.items as Json[];
const utcCompact = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

/** A sandbox whose default notification URL is its in-memory receiver. */
function setup(options: Partial<SandboxOptions> = {}) {
  const net = memoryWebhooks();
  const receiver = net.receiver();
  const sandbox = testApp({ notificationUrl: receiver.url, ...options }, { webhookPoster: net.poster });
  return { ...sandbox, receiver, net, attempts: recordedAttempts(sandbox.core) };
}

describe('payment webhooks', () => {
  it('--webhook-timezone puts timestamp, payment_time and account_date in that zone', async () => {
    const { app, receiver } = setup({ webhookTimezone: 'Asia/Shanghai' });
    const tx = await createTx(app);
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.headers.timezone).toBe('Asia/Shanghai');
    const shanghai = utcCompact(new Date(Date.now() + 8 * 3600 * 1000));
    expect(Math.abs(Number(hook!.headers.timestamp) - Number(shanghai))).toBeLessThan(100); // within a minute
    const pd = (hook!.body as { payment_data: Json }).payment_data;
    expect(Math.abs(Number(pd.payment_time) - Number(shanghai))).toBeLessThan(100);
    expect(pd.account_date).toBe(String(pd.payment_time).slice(0, 8));
  });

  it.each([
    ['JPY', 500, '500'],
    ['BHD', 1050, '1.050'],
    ['EUR', 5, '0.05'],
  ])('fail sends FAILED with %s amounts by ISO 4217 exponent', async (currency, amount, major) => {
    const { app, receiver } = setup();
    const tx = await createTx(app, { amount, currency, external_identifier: undefined });
    await control(app, 'POST', `/transactions/${String(tx.id)}/fail`);
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
  it('hmac mode signs with the hex HMAC-SHA256 of the raw body', async () => {
    const { app, receiver } = setup({ webhookSigning: 'hmac', webhookSecret: 'whsec_test' });
    const tx = await createTx(app);
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.headers.signature).toBe(createHmac('sha256', 'whsec_test').update(hook!.raw).digest('hex'));
  });

  it('a second outcome is 409, changes nothing and sends nothing', async () => {
    const { app, receiver, attempts } = setup();
    const tx = await createTx(app);
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    await attempts.waitFor(1);
    const again = await control(app, 'POST', `/transactions/${String(tx.id)}/fail`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ type: 'error', code: 'invalid_state', message: expect.stringMatching(/already SUCCEEDED/) });
    const twice = await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    expect(twice.status).toBe(409);
    // No webhook goes out without its delivery row: one row, one webhook, even after an hour.
    await control(app, 'POST', '/clock/advance', { seconds: 3600 });
    expect(await deliveriesOf(app)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect(attempts.count()).toBe(1);
    expect((await api(app, 'GET', `/v4/transactions/${String(tx.id)}`)).body.status).toBe('SUCCEEDED');
  });
});

describe('delivery retries', () => {
  it('a receiver that fails twice then acknowledges gets one delivery marked delivered after three attempts, identical bodies', async () => {
    const { app, receiver, attempts } = setup();
    receiver.respond = (n) => (n <= 2 ? { status: 500, body: 'oops' } : ACK);
    const tx = await createTx(app);
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    await attempts.waitFor(1);
    const [d] = await deliveriesOf(app);
    expect(d).toMatchObject({ status: 'pending', attempts_count: 1 });
    // Back-off: the 2nd attempt is due 10 s later on the sandbox clock, the 3rd 20 s after that.
    await control(app, 'POST', '/clock/advance', { seconds: 9 });
    expect(receiver.received).toHaveLength(1);
    await control(app, 'POST', '/clock/advance', { seconds: 1 });
    expect(receiver.received).toHaveLength(2);
    await control(app, 'POST', '/clock/advance', { seconds: 20 });
    expect(receiver.received).toHaveLength(3);
    await control(app, 'POST', '/clock/advance', { seconds: 3600 });
    expect(receiver.received).toHaveLength(3);
    const all = await deliveriesOf(app);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: 'delivered', attempts_count: 3 });
    const tried = all[0]!.attempts as Json[];
    expect(tried.map((a) => [a.response_status, a.ok])).toEqual([
      [500, false],
      [500, false],
      [200, true],
    ]);
    expect(tried[0]!.error).toMatch(/HTTP 500/);
    expect(new Set(receiver.received.map((h) => h.raw)).size).toBe(1);
    expect(receiver.received.every((h) => h.verified)).toBe(true);
    expect((tried[0]!.request_headers as Json).signature).toBe(receiver.received[0]!.headers.signature);
  });

  it('a 200 with the wrong body is retried', async () => {
    const { app, receiver, attempts } = setup();
    receiver.respond = (n) => (n === 1 ? { status: 200, body: '{"ok":true}' } : ACK);
    const tx = await createTx(app);
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    await attempts.waitFor(1);
    await control(app, 'POST', '/clock/advance', { seconds: 10 });
    const [d] = await deliveriesOf(app);
    expect(d).toMatchObject({ status: 'delivered', attempts_count: 2 });
    expect((d!.attempts as Json[])[0]!.error).toMatch(/code.*200.*SUCCESS/);
  });

  it('a URL no receiver answers is refused as a closed port: the attempt is recorded as failed and retried on the clock', async () => {
    const { app, attempts } = setup();
    const nobody = 'http://127.0.0.200:9/webhooks';
    const tx = await createTx(app, { notification_url: nobody });
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    await attempts.waitFor(1);
    await control(app, 'POST', '/clock/advance', { seconds: 10 });
    const [d] = await deliveriesOf(app);
    expect(d).toMatchObject({ url: nobody, status: 'pending', attempts_count: 2 });
    expect((d!.attempts as Json[]).map((a) => [a.ok, a.response_status ?? null])).toEqual([
      [false, null],
      [false, null],
    ]);
    expect(String((d!.attempts as Json[])[0]!.error)).toMatch(/ECONNREFUSED/);
  });

  it('resend delivers the same body again with a fresh timestamp and a valid signature', async () => {
    const { app, receiver, attempts } = setup();
    const tx = await createTx(app);
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    await attempts.waitFor(1);
    await control(app, 'POST', '/clock/advance', { seconds: 3600 });
    const [d] = await deliveriesOf(app);
    const res = await control(app, 'POST', `/deliveries/${String(d!.id)}/resend`);
    expect(res.status).toBe(202);
    const hooks = await receiver.waitFor(2);
    expect(hooks[1]!.raw).toBe(hooks[0]!.raw);
    expect(hooks[1]!.verified).toBe(true);
    expect(Number(hooks[1]!.headers.timestamp) - Number(hooks[0]!.headers.timestamp)).toBeGreaterThanOrEqual(10000); // an hour later
    expect((await control(app, 'POST', '/deliveries/nope/resend')).status).toBe(404);
  });
});

describe('refunds', () => {
  it('partial refunds add up, the remainder is the default, over-refunding is 400 at /amount; each sends the refund webhook', async () => {
    const { app, receiver } = setup();
    const tx = await createTx(app, { amount: 1000, currency: 'USD', external_identifier: 'order-7' });
    const early = await api(app, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, { amount: 100 });
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/PENDING/);
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    const r1 = await api(app, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, {
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
    const over = await api(app, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, { amount: 701 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'bad_request', details: [{ pointer: '/amount', location: 'body' }] });
    const rest = await api(app, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, {});
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe(700);
    const none = await api(app, 'POST', `/v4/transactions/${String(tx.id)}/refunds`, {});
    expect(none.status).toBe(400);
    const got = await api(app, 'GET', `/v4/transactions/${String(tx.id)}`);
    expect(got.body).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 1000 });
    const list = await api(app, 'GET', `/v4/transactions/${String(tx.id)}/refunds`);
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
    const { app, receiver } = setup();
    const tx = await createTx(app, { amount: 900 });
    await control(app, 'POST', `/transactions/${String(tx.id)}/settle`);
    const res = await control(app, 'POST', `/transactions/${String(tx.id)}/refund`, { amount: 250 });
    expect(res.status).toBe(201);
    expect(res.body.amount).toBe(250);
    await receiver.waitFor(2);
    expect((await api(app, 'GET', `/v4/transactions/${String(tx.id)}`)).body.refunded_amount).toBe(250);
    expect((await control(app, 'POST', '/transactions/nope/refund', {})).status).toBe(404);
  });
});

describe('durability', () => {
  it('an accepted outcome is never lost: pending deliveries survive a restart with a --db file and go out after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-durable-'));
    try {
      const db = join(dir, 'sandbox.db');
      const net = memoryWebhooks();
      const receiver = net.receiver();
      receiver.respond = () => ({ status: 503, body: 'down' });
      const first = testApp({ db, notificationUrl: receiver.url }, { webhookPoster: net.poster });
      const attempted = recordedAttempts(first.core);
      const tx = await createTx(first.app);
      await control(first.app, 'POST', `/transactions/${String(tx.id)}/settle`);
      await attempted.waitFor(1);
      await first.lifecycle.close();
      receiver.respond = () => ACK;
      const second = testApp({ db, notificationUrl: receiver.url }, { webhookPoster: net.poster });
      try {
        await control(second.app, 'POST', '/clock/advance', { seconds: 10 });
        const hooks = await receiver.waitFor(2);
        expect(hooks[1]!.raw).toBe(hooks[0]!.raw);
        const [d] = await deliveriesOf(second.app);
        expect(d).toMatchObject({ status: 'delivered', attempts_count: 2 });
      } finally {
        await second.lifecycle.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('checkout transactions', () => {
  it('settle works for checkout accounts too and the webhook goes to notification_url', async () => {
    const { app, net } = appWithReceiver();
    const own = net.receiver();
    const res = await api(
      app,
      'POST',
      '/v4/transactions',
      { amount: 100, currency: 'EUR', return_url: 'https://shop.example/ok', notification_url: own.url },
      CHECKOUT,
    );
    expect(res.status).toBe(201);
    await control(app, 'POST', `/transactions/${String(res.body.id)}/settle`);
    const [hook] = await own.waitFor(1);
    expect(hook!.verified).toBe(true);
  });
});
