/**
 * Limits and rewinds, over real sockets: the delivery log never keeps more
 * than --delivery-log-limit, expired idempotency keys are deleted, `503-after` on a refused
 * request does not claim a stored response, and a reset that rewinds the clock during an
 * advance is not undone by it.
 */
import { describe, expect, it } from 'vitest';
import { perTest } from '../../support/servers.js';
import type { RunningServer } from '../../../src/server.js';
import { directSubscription } from '../../support/subscriptions.js';
import { directPayment, headers, startReceiver } from '../../support/app.js';

const { defer, serve } = perTest();

const json = { 'content-type': 'application/json' };
const count = (server: RunningServer, sql: string): number => (server.db.prepare(sql).get() as { n: number }).n;

describe('--delivery-log-limit', () => {
  it('50 keeps at most 50 finished deliveries, the newest (it kept 70)', async () => {
    const receiver = await startReceiver();
    defer(() => receiver.close());
    const server = await serve({ notificationUrl: receiver.url, deliveryLogLimit: 50 });
    let last = '';
    for (let i = 0; i < 70; i++) {
      const created = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ external_identifier: `limit-${i}` })),
      });
      expect(created.status).toBe(201);
      last = ((await created.json()) as { id: string }).id;
      const settled = await fetch(`${server.url}/_sandbox/transactions/${last}/settle`, { method: 'POST' });
      await settled.arrayBuffer();
    }
    await fetch(`${server.url}/_sandbox/clock/advance`, { method: 'POST', headers: json, body: JSON.stringify({ seconds: 1 }) });
    expect(count(server, "SELECT count(*) AS n FROM deliveries WHERE status = 'pending'")).toBe(0);
    expect(count(server, 'SELECT count(*) AS n FROM deliveries')).toBeLessThanOrEqual(50);
    expect(count(server, 'SELECT count(*) AS n FROM deliveries')).toBeGreaterThanOrEqual(40);
    expect(server.core.queries.deliveries.forResource(last)).toHaveLength(1);
  });
});

describe('idempotency keys', () => {
  it('keys older than 24 h on the sandbox clock are deleted (they were kept for ever)', async () => {
    const server = await serve({ ticker: true });
    const post = (key: string, i: number): Promise<Response> =>
      fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(undefined, { 'idempotency-key': key }),
        body: JSON.stringify(directPayment({ external_identifier: `k-${i}` })),
      });
    for (let i = 0; i < 50; i++) expect((await post(`old-${i}`, i)).status).toBe(201);
    expect(count(server, "SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE 'old-%'")).toBe(50);
    const advanced = await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ seconds: 25 * 3600 }),
    });
    expect(advanced.status).toBe(200);
    // The sweep is the scheduler's upkeep: the ticker deletes them after the advance, no request needed.
    await expect
      .poll(() => count(server, "SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE 'old-%'"), { timeout: 20_000 })
      .toBe(0);
    for (let i = 0; i < 10; i++) expect((await post(`new-${i}`, 1000 + i)).status).toBe(201);
    expect(count(server, "SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE 'old-%'")).toBe(0);
    expect(count(server, "SELECT count(*) AS n FROM idempotency_keys WHERE key LIKE 'new-%'")).toBe(10);
  });

  it('503-after on a request refused by validation answers the refusal, and stores nothing under its key', async () => {
    const server = await serve();
    const h = headers(undefined, { 'idempotency-key': 'fault-after-invalid', 'x-sandbox-fault': '503-after' });
    const refused = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ amount: 'ten', currency: 'USD' }),
    });
    expect(refused.status).toBe(400);
    const envelope = (await refused.json()) as { type: string; status: number; details: { pointer: string; location: string }[] };
    expect(envelope.type).toBe('error');
    expect(envelope.details.length).toBeGreaterThan(0);
    expect(count(server, "SELECT count(*) AS n FROM idempotency_keys WHERE key = 'fault-after-invalid'")).toBe(0);
    const retried = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(undefined, { 'idempotency-key': 'fault-after-invalid' }),
      body: JSON.stringify(directPayment()),
    });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('a reset with rewind_clock during an advance', () => {
  it('is not undone when the advance ends: the clock stays rewound', async () => {
    const server = await serve();
    for (let n = 0; n < 30; n++) {
      const sub = directSubscription({
        external_identifier: `rewind-${n}`,
        plan: { name: 'Daily', currency: 'USD', amount: 900, interval: 'day' },
      });
      const res = await fetch(`${server.url}/v4/subscriptions`, {
        method: 'POST',
        headers: headers(undefined, { 'x-forwarded-for': '203.0.113.7' }),
        body: JSON.stringify(sub),
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    // 30 daily subscriptions for 300 days: 9,000 renewals, many turns of the event loop
    const advancing = fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ seconds: 300 * 86_400, wait_for_webhooks: false }),
    });
    let moved = 0;
    while (moved === 0) {
      await new Promise((r) => setTimeout(r, 5));
      moved = ((await (await fetch(`${server.url}/_sandbox/clock`)).json()) as { offset_seconds: number }).offset_seconds;
    }
    const reset = await fetch(`${server.url}/_sandbox/reset`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ rewind_clock: true }),
    });
    expect(reset.status).toBe(200);
    const answer = await advancing;
    expect([200, 500]).toContain(answer.status);
    const clock = (await (await fetch(`${server.url}/_sandbox/clock`)).json()) as { offset_seconds: number };
    expect(Math.abs(clock.offset_seconds)).toBeLessThan(60);
    expect(Number(server.db.prepare("SELECT value FROM meta WHERE key = 'clock_offset_ms'").pluck().get())).toBe(0);
  });
});
