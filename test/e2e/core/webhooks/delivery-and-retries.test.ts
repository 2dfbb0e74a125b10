/**
 * Signed webhooks on the wire: a real sandbox on a socket, a real merchant receiver on
 * loopback that verifies every signature with node's crypto and the published PEM: the exact
 * body signed over its raw bytes, retries around attempts still under way, time limits,
 * refused connections, a slow server beside a fast one, the real-time ticker and the event
 * stream. The rest of the webhooks' rules (timezone, HMAC, retries on the clock, resend,
 * refunds, durability) run through the app in api/webhooks/payment-webhooks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { ACK, DIRECT, directPayment, headers, startReceiver, type Receiver } from '../../../support/app.js';

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
});

describe('delivery retries', () => {
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

describe('durability', () => {
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
