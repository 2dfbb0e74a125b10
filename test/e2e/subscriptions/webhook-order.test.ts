/**
 * One subscription's webhooks over real sockets: its charges' webhooks (first charge, renewals,
 * every retry of a failed renewal) reach their URL one at a time, in the order of their charges,
 * even when one of them is held by the merchant or retried for more than a day; other
 * subscriptions and one-off payments to the same URL do not wait for them.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { directPayment, headers } from '../../support/app.js';
import { directSubscription, type Json } from '../../support/subscriptions.js';

const DAY_S = 86_400;
const ACK = '{"code":"200","message":"SUCCESS"}';

interface Arrival {
  reference: string;
  status: string;
  timestamp: string;
  answered: number;
}

/**
 * A merchant's server that records each webhook's `merchant_transaction_id` in arrival order,
 * holds those `hold` names until `release()`, and answers `fail` with 500 while it says so.
 */
async function merchant(options: { hold?: (reference: string) => boolean; fail?: (reference: string, seen: number) => boolean }) {
  const arrivals: Arrival[] = [];
  const seen = new Map<string, number>();
  const held: ServerResponse[] = [];
  let releasing = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      const reference = String(body.merchant_transaction_id);
      const count = (seen.get(reference) ?? 0) + 1;
      seen.set(reference, count);
      const status = String((body.payment_data as Json).payment_status);
      const failing = options.fail?.(reference, count) === true;
      arrivals.push({ reference, status, timestamp: String(req.headers.timestamp), answered: failing ? 500 : 200 });
      if (failing) res.writeHead(500).end('not now');
      else if (!releasing && options.hold?.(reference)) held.push(res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(ACK);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return {
    url,
    arrivals,
    held,
    release() {
      releasing = true;
      for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end(ACK);
    },
    close: async () => {
      releasing = true;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function sandbox(): Promise<RunningServer> {
  const server = await startServer({ port: 0, host: '127.0.0.1', ticker: false });
  cleanup.push(() => server.stop());
  return server;
}

async function post(server: RunningServer, path: string, payload: unknown, api = true): Promise<Json> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: api ? headers(undefined, { 'x-forwarded-for': '203.0.113.7' }) : { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Json;
}

function subscription(externalId: string, url: string, plan: Json): Json {
  return directSubscription({ external_identifier: externalId, plan, payment_method: { type: 'card', webhooks_url: url } });
}

const until = async (check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const DAILY = { name: 'Daily', currency: 'USD', amount: 900, interval: 'day' };

describe("one subscription's webhooks, in order", () => {
  it("a renewal's webhook waits while the first charge's is held; another subscription's and a payment's to the same URL do not", async () => {
    const hooks = await merchant({ hold: (reference) => reference === 'sub-a.period-0' });
    cleanup.push(hooks.close);
    const server = await sandbox();
    await post(server, '/v4/subscriptions', subscription('sub-a', hooks.url, DAILY));
    await until(() => hooks.held.length === 1, "sub-a's first webhook");
    await post(server, '/v4/subscriptions', subscription('sub-b', hooks.url, DAILY));
    const advanced = await post(server, '/_sandbox/clock/advance', { seconds: DAY_S + 60, wait_for_webhooks: false }, false);
    expect(advanced.steps).toBe(2);
    const payment = await post(server, '/v4/transactions', directPayment({ external_identifier: 'one-off', notification_url: hooks.url }));
    await post(server, `/_sandbox/transactions/${String(payment.id)}/settle`, {}, false);

    const references = () => hooks.arrivals.map((a) => a.reference);
    await until(() => ['sub-b.period-0', 'sub-b.period-1', 'one-off'].every((r) => references().includes(r)), 'the other webhooks');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(references()).not.toContain('sub-a.period-1');

    hooks.release();
    await until(() => references().includes('sub-a.period-1'), "sub-a's renewal webhook");
    const ofA = hooks.arrivals.filter((a) => a.reference.startsWith('sub-a.'));
    expect(ofA.map((a) => a.reference)).toEqual(['sub-a.period-0', 'sub-a.period-1']);
    // Stamped with its charge's day, not with when the one before it was answered.
    const charged = Date.parse(String(advanced.now)) - 60_000;
    expect(ofA[1]!.timestamp.slice(0, 8)).toBe(new Date(charged).toISOString().slice(0, 10).replace(/-/g, ''));
  });

  it("a failing renewal's retries arrive in order even when one attempt's webhook is retried for more than a day", async () => {
    // Refused 15 times, the second attempt's webhook is retried for about 29 hours: past the third attempt's charge.
    const hooks = await merchant({ fail: (reference, seen) => reference === 'sub-r.period-1.attempt-2' && seen <= 15 });
    cleanup.push(hooks.close);
    const server = await sandbox();
    const plan = { name: 'renewal-fails', currency: 'USD', amount: 900, interval: 'week', payment_attempts: 3 };
    const created = await post(server, '/v4/subscriptions', subscription('sub-r', hooks.url, plan));
    await until(() => hooks.arrivals.length === 1, 'the first charge webhook');
    await post(server, '/_sandbox/clock/advance', { seconds: 7 * DAY_S + 60 }, false);
    await post(server, '/_sandbox/clock/advance', { seconds: 3 * DAY_S }, false);
    const sub = (await (await fetch(`${server.url}/v4/subscriptions/${String(created.id)}`, { headers: headers() })).json()) as Json;
    expect(sub.status).toBe('cancelled');

    await until(() => hooks.arrivals.some((a) => a.reference === 'sub-r.period-1.attempt-3'), 'the third attempt webhook');
    const acknowledged = hooks.arrivals.filter((a) => a.answered === 200).map((a) => [a.reference, a.status]);
    expect(acknowledged).toEqual([
      ['sub-r.period-0', 'SUCCEEDED'],
      ['sub-r.period-1', 'FAILED'],
      ['sub-r.period-1.attempt-2', 'FAILED'],
      ['sub-r.period-1.attempt-3', 'FAILED'],
    ]);
    // Nothing of the subscription arrived between the second attempt's refused tries.
    const firstTry = hooks.arrivals.findIndex((a) => a.reference === 'sub-r.period-1.attempt-2');
    expect(hooks.arrivals.slice(firstTry, firstTry + 16).every((a) => a.reference === 'sub-r.period-1.attempt-2')).toBe(true);
  });
});
