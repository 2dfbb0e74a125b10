/**
 * A clock per account, over a real socket: two accounts with monthly subscriptions on one
 * sandbox; advancing one account's clock a month renews its subscription alone, stamps its
 * webhooks (`timestamp` header, `payment_time`) and its records in its own time, and expires
 * its idempotency keys alone, while the other account sees nothing move. Then four worker
 * threads, one account each, advance their own clocks at once and see only their own renewals.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../../support/servers.js';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { directPayment, headers, type Creds, type ReceivedWebhook, type Receiver } from '../../../support/app.js';
import { directSubscription, type Json } from '../../../support/subscriptions.js';

const { defer, serve, receive } = perTest();

async function setup(): Promise<{ server: RunningServer; receiver: Receiver }> {
  return { receiver: await receive(), server: await serve() };
}

async function call(
  server: RunningServer,
  method: string,
  path: string,
  payload?: unknown,
  creds?: Creds,
  extra: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: creds ? headers(creds, extra) : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function newAccount(server: RunningServer, name: string): Promise<Creds> {
  const created = await call(server, 'POST', '/_sandbox/accounts', { mode: 'direct', name });
  expect(created.status).toBe(201);
  return { account_id: String(created.body.account_id), api_key: String(created.body.api_key) };
}

function subscriptionOf(receiver: Receiver, externalId: string): Json {
  return directSubscription({
    external_identifier: externalId,
    payment_method: { ...(directSubscription().payment_method as Json), webhooks_url: receiver.url },
  });
}

/** `2026-12-22T10:00:00.000+00:00` → `20261222`. */
const digitsOfDay = (iso: unknown): string => String(iso).slice(0, 10).replace(/-/g, '');
const hooksOf = (receiver: Receiver, externalId: string): ReceivedWebhook[] =>
  receiver.received.filter((h) => String((h.body as Json).merchant_transaction_id).startsWith(`${externalId}.`));
const paymentTime = (hook: ReceivedWebhook): string => String(((hook.body as Json).payment_data as Json).payment_time);

describe('a clock per account', () => {
  it("advancing one account's clock a month renews only its own subscription, in its own time", async () => {
    const { server, receiver } = await setup();
    const a = await newAccount(server, 'worker-a');
    const b = await newAccount(server, 'worker-b');
    const subA = await call(server, 'POST', '/v4/subscriptions', subscriptionOf(receiver, 'sub-a'), a, {
      'x-forwarded-for': '203.0.113.7',
    });
    const subB = await call(server, 'POST', '/v4/subscriptions', subscriptionOf(receiver, 'sub-b'), b, {
      'x-forwarded-for': '203.0.113.7',
    });
    expect([subA.status, subB.status]).toEqual([201, 201]);
    await receiver.waitFor(2); // the first charges

    // An idempotency key in each account, from the same request.
    const payment = directPayment({ external_identifier: 'order-k1' });
    const firstA = await call(server, 'POST', '/v4/transactions', payment, a, { 'idempotency-key': 'key-1' });
    const firstB = await call(server, 'POST', '/v4/transactions', payment, b, { 'idempotency-key': 'key-1' });
    expect([firstA.status, firstB.status]).toEqual([201, 201]);

    const sandboxBefore = (await call(server, 'GET', '/_sandbox/clock')).body;
    const clockB = (await call(server, 'GET', `/_sandbox/accounts/${b.account_id}/clock`)).body;
    const advanced = await call(server, 'POST', `/_sandbox/accounts/${a.account_id}/clock/advance`, { months: 1 });
    expect(advanced.status).toBe(200);
    expect(advanced.body.steps).toBeGreaterThanOrEqual(1);
    const offsetA = Number(advanced.body.offset_seconds);
    expect(offsetA).toBeGreaterThan(27 * 86_400);
    const clockA = (await call(server, 'GET', `/_sandbox/accounts/${a.account_id}/clock`)).body;
    expect(clockA.offset_seconds).toBe(offsetA);

    // A's renewal went out (the advance answered once it had its attempt), stamped in A's time.
    const renewalsA = hooksOf(receiver, 'sub-a').filter((h) => String((h.body as Json).merchant_transaction_id).endsWith('period-1'));
    expect(renewalsA).toHaveLength(1);
    const renewal = renewalsA[0]!;
    expect(renewal.verified).toBe(true);
    expect(String(renewal.headers.timestamp).slice(0, 8)).toBe(digitsOfDay(clockA.now));
    expect(paymentTime(renewal).slice(0, 8)).toBe(digitsOfDay(clockA.now));
    expect(digitsOfDay(clockA.now)).not.toBe(digitsOfDay(sandboxBefore.now));
    // A's records are stamped in A's time; its next billing date moved a month.
    const readA = (await call(server, 'GET', `/v4/subscriptions/${String(subA.body.id)}`, undefined, a)).body;
    expect(readA.next_billing_date).not.toBe(subA.body.next_billing_date);

    // B saw nothing move: no renewal, same next billing date, same clock; the sandbox clock stayed.
    expect(hooksOf(receiver, 'sub-b').filter((h) => String((h.body as Json).merchant_transaction_id).endsWith('period-1'))).toEqual([]);
    const readB = (await call(server, 'GET', `/v4/subscriptions/${String(subB.body.id)}`, undefined, b)).body;
    expect(readB.next_billing_date).toBe(subB.body.next_billing_date);
    expect(readB.status).toBe('active');
    const clockBAfter = (await call(server, 'GET', `/_sandbox/accounts/${b.account_id}/clock`)).body;
    expect(clockBAfter.offset_seconds).toBe(clockB.offset_seconds);
    expect((await call(server, 'GET', '/_sandbox/clock')).body.offset_seconds).toBe(sandboxBefore.offset_seconds);

    // The key expired on A's clock only: A's retry creates anew, B's replays its first answer.
    const againA = await call(server, 'POST', '/v4/transactions', payment, a, { 'idempotency-key': 'key-1' });
    const againB = await call(server, 'POST', '/v4/transactions', payment, b, { 'idempotency-key': 'key-1' });
    expect(againA.status).toBe(201);
    expect(againA.body.id).not.toBe(firstA.body.id);
    expect(digitsOfDay(againA.body.created_at ?? againA.body.created)).toBe(digitsOfDay(clockA.now));
    expect(againB.body.id).toBe(firstB.body.id);

    // The sandbox clock's advance still moves every account's clock.
    await call(server, 'POST', '/_sandbox/clock/advance', { seconds: 3600 });
    expect((await call(server, 'GET', `/_sandbox/accounts/${a.account_id}/clock`)).body.offset_seconds).toBeCloseTo(offsetA + 3600, 0);
    expect((await call(server, 'GET', `/_sandbox/accounts/${b.account_id}/clock`)).body.offset_seconds).toBeCloseTo(3600, 0);
  });

  it("a --db restart and a snapshot keep each account's offset; a reset keeps it or rewinds it with the sandbox clock", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'account-clocks-'));
    defer(async () => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const first = await startServer({ port: 0, ticker: false, db });
    const a = await newAccount(first, 'worker-a');
    await call(first, 'POST', `/_sandbox/accounts/${a.account_id}/clock/advance`, { seconds: 86_400 });
    const snapshot = Buffer.from(await (await fetch(`${first.url}/_sandbox/snapshot`)).arrayBuffer());
    await first.stop();

    const again = await startServer({ port: 0, ticker: false, db });
    defer(() => again.stop());
    expect((await call(again, 'GET', `/_sandbox/accounts/${a.account_id}/clock`)).body.offset_seconds).toBeCloseTo(86_400, 0);
    const snapshotFile = join(dir, 'snapshot.db');
    writeFileSync(snapshotFile, snapshot);
    const restored = await startServer({ port: 0, ticker: false, restore: snapshotFile });
    defer(() => restored.stop());
    expect((await call(restored, 'GET', `/_sandbox/accounts/${a.account_id}/clock`)).body.offset_seconds).toBeCloseTo(86_400, 0);

    expect((await call(again, 'POST', '/_sandbox/reset', {})).status).toBe(200);
    expect((await call(again, 'GET', `/_sandbox/accounts/${a.account_id}/clock`)).body.offset_seconds).toBeCloseTo(86_400, 0);
    expect((await call(again, 'POST', '/_sandbox/reset', { rewind_clock: true })).status).toBe(200);
    expect((await call(again, 'GET', `/_sandbox/accounts/${a.account_id}/clock`)).body.offset_seconds).toBe(0);
  });

  it('an unknown account is 404 in the error envelope; a bad body is 400', async () => {
    const { server } = await setup();
    const missing = await call(server, 'POST', '/_sandbox/accounts/acc_nobody/clock/advance', { seconds: 60 });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect((await call(server, 'GET', '/_sandbox/accounts/acc_nobody/clock')).status).toBe(404);
    const a = await newAccount(server, 'worker-a');
    const bad = await call(server, 'POST', `/_sandbox/accounts/${a.account_id}/clock/advance`, { seconds: -5 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('bad_request');
  });

  it('four workers advance their own clocks at once against one sandbox and do not see each other', async () => {
    const { server, receiver } = await setup();
    // Each worker: its own account and monthly subscription, then its own clock `months` ahead.
    const workerCode = `
      const { parentPort, workerData } = require('node:worker_threads');
      const { url, months, name, subscription } = workerData;
      const json = { 'content-type': 'application/json' };
      (async () => {
        const created = await (await fetch(url + '/_sandbox/accounts', { method: 'POST', headers: json, body: JSON.stringify({ mode: 'direct', name }) })).json();
        const auth = { ...json, authorization: 'Bearer ' + created.api_key, 'x-merchant-account-id': created.account_id, 'x-forwarded-for': '203.0.113.7' };
        const sub = await (await fetch(url + '/v4/subscriptions', { method: 'POST', headers: auth, body: JSON.stringify(subscription) })).json();
        const advanced = await (await fetch(url + '/_sandbox/accounts/' + created.account_id + '/clock/advance', { method: 'POST', headers: json, body: JSON.stringify({ months }) })).json();
        const read = await (await fetch(url + '/v4/subscriptions/' + sub.id, { headers: auth })).json();
        const clock = await (await fetch(url + '/_sandbox/accounts/' + created.account_id + '/clock')).json();
        parentPort.postMessage({ name, accountId: created.account_id, created: sub.next_billing_date, next: read.next_billing_date, steps: advanced.steps, offset: clock.offset_seconds });
      })().catch((err) => parentPort.postMessage({ name, error: String(err && err.stack || err) }));
    `;
    const run = (months: number): Promise<Json> =>
      new Promise((resolve, reject) => {
        const worker = new Worker(workerCode, {
          eval: true,
          workerData: {
            url: server.url,
            months,
            name: `worker-${months}`,
            subscription: directSubscription({
              external_identifier: `worker-${months}`,
              payment_method: { ...(directSubscription().payment_method as Json), webhooks_url: receiver.url },
            }),
          },
        });
        worker.once('message', (message: Json) => {
          void worker.terminate();
          resolve(message);
        });
        worker.once('error', reject);
      });
    const results = await Promise.all([1, 2, 3, 4].map(run));
    for (const [i, result] of results.entries()) {
      const months = i + 1;
      expect(result.error).toBeUndefined();
      // Each worker's subscription renewed exactly `months` times: its next billing date moved that many months.
      const created = new Date(`${String(result.created)}T00:00:00Z`);
      const next = new Date(`${String(result.next)}T00:00:00Z`);
      const monthsMoved = (next.getUTCFullYear() - created.getUTCFullYear()) * 12 + next.getUTCMonth() - created.getUTCMonth();
      expect(monthsMoved).toBe(months);
      expect(Number(result.offset)).toBeGreaterThan(months * 27 * 86_400);
      expect(Number(result.offset)).toBeLessThan(months * 32 * 86_400);
      // Its webhooks: the first charge and one per renewal, none of the others'.
      const periods = hooksOf(receiver, `worker-${months}`).map(
        (h) => /period-(\d+)/.exec(String((h.body as Json).merchant_transaction_id))?.[1],
      );
      expect(periods.sort()).toEqual(Array.from({ length: months + 1 }, (_, p) => String(p)));
    }
    // The sandbox clock itself never moved.
    expect((await call(server, 'GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
  });
});
