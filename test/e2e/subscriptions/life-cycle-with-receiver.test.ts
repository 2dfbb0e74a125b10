/**
 * Subscriptions over a real socket, as a merchant's CI would use them: create a monthly
 * subscription whose `payment_method.webhooks_url` is a real receiver on 127.0.0.1, move the
 * sandbox clock a year ahead with one `POST /_sandbox/clock/advance`, and get one signed
 * payment webhook per charge, each stamped with its charge's date, each signature verified
 * with node's crypto and the published public key. The advance answers without waiting for
 * the merchant: the webhooks it queued go out after each step's commit, so they are awaited
 * here; one subscription's webhooks arrive one at a time, in the order of its charges. Then a
 * renewal that fails until cancelled. The e-mail and amount magic values on a spec-shaped
 * direct subscription run through the app in api/subscriptions/magic-values-on-subscriptions.
 */
import { describe, expect, it } from 'vitest';
import { perTest } from '../../support/servers.js';
import type { RunningServer } from '../../../src/server.js';
import { DIRECT, headers, type Receiver } from '../../support/app.js';
import { directSubscription, plusMonths, type Json } from '../../support/subscriptions.js';

const { serve, receive } = perTest();

async function setup(): Promise<{ server: RunningServer; receiver: Receiver }> {
  // No default notification URL: every webhook below must come from webhooks_url.
  return { receiver: await receive(), server: await serve() };
}

async function call(
  server: RunningServer,
  method: string,
  path: string,
  payload?: unknown,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const control = path.startsWith('/_sandbox');
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: control ? { 'content-type': 'application/json' } : headers(DIRECT, extra),
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const yyyymmdd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
const paymentData = (hook: { body: unknown }) => (hook.body as { payment_data: Json }).payment_data;
/** The period a charge's webhook is about (`sub-0001.period-7` → 7). */
const periodOf = (hook: { body: unknown }) => Number(/period-(\d+)/.exec(String((hook.body as Json).merchant_transaction_id))?.[1]);

describe('subscriptions over a socket with a real webhook receiver', () => {
  it('a year of monthly renewals in one clock advance: one verified webhook per charge, in order, on its date', async () => {
    const { server, receiver } = await setup();
    const payload = directSubscription({
      payment_method: { ...(directSubscription().payment_method as Json), webhooks_url: receiver.url },
    });
    const created = await call(server, 'POST', '/v4/subscriptions', payload, {
      'x-forwarded-for': '203.0.113.7',
      'idempotency-key': 'e2e-sub-1',
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('active');
    await receiver.waitFor(1);

    const start = new Date(String(created.body.created));
    const seconds =
      (plusMonths(start, 12).getTime() - Date.parse(String((await call(server, 'GET', '/_sandbox/clock')).body.now))) / 1000 + 3600;
    const advanced = await call(server, 'POST', '/_sandbox/clock/advance', { seconds });
    expect(advanced.status).toBe(200);

    // Queued during the advance; one subscription's webhooks arrive one at a time, in the order of its charges.
    const received = await receiver.waitFor(13);
    expect(received.map(periodOf)).toEqual(Array.from({ length: 13 }, (_, k) => k));
    expect(received).toHaveLength(13);
    for (const hook of received) {
      expect(hook.verified).toBe(true);
      expect(hook.headers.timezone).toBe('UTC');
      expect(hook.headers.timestamp).toMatch(/^\d{14}$/);
      expect(hook.path).toBe('/webhooks');
    }
    expect(received.map((h) => (h.body as Json).merchant_transaction_id)).toEqual(
      Array.from({ length: 13 }, (_, k) => `sub-0001.period-${k}`),
    );
    expect(
      received.map((h) => [String(paymentData(h).payment_time).slice(0, 8), paymentData(h).payment_amount, paymentData(h).payment_status]),
    ).toEqual(Array.from({ length: 13 }, (_, k) => [yyyymmdd(plusMonths(start, k)), k === 0 ? '10.00' : '9.00', 'SUCCEEDED']));
    // Each webhook's timestamp header is the sandbox-clock time of its charge.
    expect(received.map((h) => String(h.headers.timestamp).slice(0, 8))).toEqual(
      Array.from({ length: 13 }, (_, k) => yyyymmdd(plusMonths(start, k))),
    );

    const sub = await call(server, 'GET', `/v4/subscriptions/${String(created.body.id)}`);
    expect(sub.body).toMatchObject({ status: 'active', next_billing_date: plusMonths(start, 13).toISOString().slice(0, 10) });
    const charges = await call(server, 'GET', '/v4/transactions?limit=100');
    expect((charges.body.items as Json[]).filter((t) => t.subscription_id === created.body.id)).toHaveLength(13);
  });

  it('a renewal that keeps failing: FAILED webhooks for each attempt, past_due, then cancelled', async () => {
    const { server, receiver } = await setup();
    const payload = directSubscription({
      plan: { name: 'renewal-fails', currency: 'USD', amount: 900, interval: 'week', payment_attempts: 3 },
      payment_method: { ...(directSubscription().payment_method as Json), webhooks_url: receiver.url },
    });
    const created = await call(server, 'POST', '/v4/subscriptions', payload, { 'x-forwarded-for': '2001:db8::7' });
    expect(created.status).toBe(201);
    await call(server, 'POST', '/_sandbox/clock/advance', { seconds: 7 * 86_400 + 60 });
    expect((await call(server, 'GET', `/v4/subscriptions/${String(created.body.id)}`)).body.status).toBe('past_due');
    await call(server, 'POST', '/_sandbox/clock/advance', { seconds: 2 * 86_400 });
    expect((await call(server, 'GET', `/v4/subscriptions/${String(created.body.id)}`)).body.status).toBe('cancelled');
    // One subscription's webhooks arrive in the order of its charges, retries included.
    const hooks = (await receiver.waitFor(4)).map((h) => [
      String((h.body as Json).merchant_transaction_id),
      paymentData(h).payment_status,
      h.verified,
    ]);
    expect(hooks).toEqual([
      ['sub-0001.period-0', 'SUCCEEDED', true],
      ['sub-0001.period-1', 'FAILED', true],
      ['sub-0001.period-1.attempt-2', 'FAILED', true],
      ['sub-0001.period-1.attempt-3', 'FAILED', true],
    ]);
  });
});
