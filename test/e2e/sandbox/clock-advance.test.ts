/**
 * `POST /_sandbox/clock/advance` over a real socket: a concurrent GET is answered while a
 * long advance runs; an advance past the step limit answers 400 before anything moves; on a
 * --db file the clock offset read after a restart matches the renewals that ran; an advance
 * answers without waiting for the merchant to acknowledge the webhooks its renewals queued,
 * each of which is stamped with the instant of its charge; with wait_for_webhooks false it
 * never waits for a webhook's round trip (one under way when it begins, a retry in its window).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { directSubscription } from '../../support/subscriptions.js';
import { body, directPayment, headers } from '../../support/app.js';

const DAY_S = 86_400;

/** A daily direct subscription that sends no webhooks (nothing to retry). */
function dailySubscription(n: number): Record<string, unknown> {
  const sub = directSubscription({
    external_identifier: `sub-clock-${n}`,
    plan: { name: 'Daily', currency: 'USD', amount: 900, interval: 'day' },
  });
  const { webhooks_url: _none, ...paymentMethod } = sub.payment_method as Record<string, unknown>;
  return { ...sub, payment_method: paymentMethod };
}

async function createDaily(url: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const res = await fetch(`${url}/v4/subscriptions`, {
      method: 'POST',
      headers: headers(undefined, { 'x-forwarded-for': '203.0.113.7' }),
      body: JSON.stringify(dailySubscription(n)),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
}

const advance = (url: string, payload: Record<string, number | boolean>): Promise<Response> =>
  fetch(`${url}/_sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });

const clockOf = async (url: string): Promise<{ now: string; offset_seconds: number }> => body(await fetch(`${url}/_sandbox/clock`));

const transactionCount = async (url: string): Promise<number> =>
  (await body<{ items: unknown[] }>(await fetch(`${url}/v4/transactions?limit=100`, { headers: headers() }))).items.length;

/** The sandbox of the running test (stopped after each). */
let server: RunningServer | undefined;

type HeldDelivery = { status: string; attempts: { at: string }[]; resource_id: string; created: string };

/**
 * A sandbox whose daily subscription's webhooks go to a receiver that holds every answer until
 * `release()`; its first charge's webhook is acknowledged and delivered before this returns.
 */
async function heldDailySubscription(externalId: string) {
  const held: ServerResponse[] = [];
  let releasing = false;
  const ack = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => (releasing ? ack(res) : held.push(res)));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  const close = async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  };
  try {
    const running = await startServer({ port: 0, host: '127.0.0.1', ticker: false, notificationUrl: `http://127.0.0.1:${port}/hooks` });
    server = running;
    const sub = directSubscription({
      external_identifier: externalId,
      plan: { name: 'Daily', currency: 'USD', amount: 900, interval: 'day' },
    });
    const created = await fetch(`${running.url}/v4/subscriptions`, {
      method: 'POST',
      headers: headers(undefined, { 'x-forwarded-for': '203.0.113.7' }),
      body: JSON.stringify({
        ...sub,
        payment_method: { ...(sub.payment_method as Record<string, unknown>), webhooks_url: `http://127.0.0.1:${port}/hooks` },
      }),
    });
    expect(created.status).toBe(201);
    // The first charge's webhook is under way (held): let it go, so the advance starts with nothing in flight.
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    ack(held.shift()!);
    const deliveries = async (): Promise<HeldDelivery[]> =>
      (await body<{ items: HeldDelivery[] }>(await fetch(`${running.url}/_sandbox/deliveries?limit=100`))).items;
    while ((await deliveries()).some((d) => d.status !== 'delivered')) await new Promise((resolve) => setTimeout(resolve, 5));
    const release = () => {
      releasing = true;
      for (const r of held.splice(0)) ack(r);
    };
    return { url: running.url, held, deliveries, release, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * A sandbox whose webhooks go to a receiver that answers 500 to the first `refuse` of them at
 * once and holds every later one until `release()`, with one settled payment.
 */
async function heldPayment(refuse: number) {
  const held: ServerResponse[] = [];
  let seen = 0;
  let releasing = false;
  const ack = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen += 1;
      if (seen <= refuse) res.writeHead(500).end('no');
      else if (releasing) ack(res);
      else held.push(res);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const release = () => {
    releasing = true;
    for (const r of held.splice(0)) ack(r);
  };
  const close = async () => {
    release();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  };
  try {
    const port = (receiver.address() as { port: number }).port;
    const running = await startServer({ port: 0, host: '127.0.0.1', ticker: false, notificationUrl: `http://127.0.0.1:${port}/hooks` });
    server = running;
    const created = await body<{ id: string }>(
      await fetch(`${running.url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) }),
    );
    expect((await fetch(`${running.url}/_sandbox/transactions/${created.id}/settle`, { method: 'POST' })).status).toBe(200);
    const delivery = async (): Promise<{ status: string; attempts_count: number }> =>
      (await body<{ items: { status: string; attempts_count: number }[] }>(await fetch(`${running.url}/_sandbox/deliveries?limit=1`)))
        .items[0]!;
    return { url: running.url, held, delivery, release, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** `advance` with wait_for_webhooks false, or 'still waiting' if it has not answered after a few seconds. */
async function advanceNotWaiting(url: string, seconds: number): Promise<number | 'still waiting'> {
  const answer = advance(url, { seconds, wait_for_webhooks: false }).then(async (res) => {
    expect(res.status).toBe(200);
    return (await body<{ steps: number }>(res)).steps;
  });
  return Promise.race([answer, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 5000))]);
}

describe('clock advance over a socket', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('answers a concurrent GET while a long advance is still running', async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', ticker: false });
    await createDaily(server.url, 1);
    let advanced = false;
    const long = advance(server.url, { seconds: 60 * DAY_S }).then((res) => {
      advanced = true;
      return res;
    });
    // Let the advance start, then ask something else of the same server.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const res = await fetch(`${server.url}/v4/transactions?limit=1`, { headers: headers() });
    expect(res.status).toBe(200);
    expect(advanced).toBe(false);
    const done = await long;
    expect(done.status).toBe(200);
    expect((await body<{ steps: number }>(done)).steps).toBeGreaterThanOrEqual(60);
  });

  it('refuses an advance past the step limit with a 400 naming the field, before anything moves', async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', ticker: false });
    // 30 daily subscriptions over ten years: about 110,000 renewals, past the 100,000 limit.
    await createDaily(server.url, 30);
    const before = await clockOf(server.url);
    const txBefore = await transactionCount(server.url);
    const res = await advance(server.url, { months: 120 });
    expect(res.status).toBe(400);
    const error = await body<{ code: string; message: string; details: { pointer: string; location: string }[] }>(res);
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/at most 100000/);
    expect(error.details[0]).toMatchObject({ pointer: '/months', location: 'body' });
    const after = await clockOf(server.url);
    expect(after.offset_seconds).toBe(before.offset_seconds);
    expect(await transactionCount(server.url)).toBe(txBefore);
  });

  it('on a --db file, the clock offset after a restart matches the renewals that ran', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-clock-http-'));
    dirs.push(dir);
    const db = join(dir, 'sandbox.db');
    server = await startServer({ port: 0, host: '127.0.0.1', ticker: false, db });
    await createDaily(server.url, 1);
    expect((await advance(server.url, { seconds: 10 * DAY_S + 60 })).status).toBe(200);
    const before = await clockOf(server.url);
    await server.stop();

    server = await startServer({ port: 0, host: '127.0.0.1', ticker: false, db });
    const after = await clockOf(server.url);
    expect(Math.round(after.offset_seconds)).toBe(Math.round(before.offset_seconds));
    type Sub = { next_billing_date: string; current_period_end: string };
    const subs = await body<{ items: Sub[] }>(await fetch(`${server.url}/v4/subscriptions`, { headers: headers() }));
    // The first charge and ten renewals: the current period ends after the clock, and began before it.
    expect(await transactionCount(server.url)).toBe(11);
    expect(Date.parse(subs.items[0]!.current_period_end)).toBeGreaterThan(Date.parse(after.now));
  });

  it("with wait_for_webhooks false, answers without waiting for the merchant to acknowledge the renewals' webhooks, each stamped with its charge's instant", async () => {
    const { url, deliveries, release, close } = await heldDailySubscription('sub-held');
    try {
      const res = await advance(url, { seconds: 5 * DAY_S + 60, wait_for_webhooks: false });
      expect(res.status).toBe(200);
      expect((await body<{ steps: number }>(res)).steps).toBe(5);
      // Answered while no renewal's webhook has been acknowledged: they are all still pending.
      const atAnswer = await deliveries();
      expect(atAnswer).toHaveLength(6);
      expect(atAnswer.filter((d) => d.status === 'pending')).toHaveLength(5);

      release();
      while ((await deliveries()).some((d) => d.status !== 'delivered')) await new Promise((resolve) => setTimeout(resolve, 10));
      // Each renewal's attempt is stamped with the day of its charge, not with where the advance had got to.
      const transactions = (
        await body<{ items: { id: string; created_at: string }[] }>(await fetch(`${url}/v4/transactions?limit=100`, { headers: headers() }))
      ).items;
      const chargedAt = new Map(transactions.map((t) => [t.id, t.created_at]));
      for (const d of await deliveries()) {
        const charged = Date.parse(chargedAt.get(d.resource_id)!);
        const stamped = Date.parse(d.attempts[0]!.at);
        expect(stamped - charged).toBeGreaterThanOrEqual(0);
        expect(stamped - charged).toBeLessThan(3_600_000);
      }
    } finally {
      await close();
    }
  });

  it('by default answers only once every webhook the advance queued has had its attempt: the handler has them all when the call returns', async () => {
    const { url, held, deliveries, release, close } = await heldDailySubscription('sub-waited');
    try {
      let answered = false;
      const call = advance(url, { seconds: 5 * DAY_S + 60 }).then((res) => {
        answered = true;
        return res;
      });
      // The first renewal's webhook reaches the handler, which holds it; the later ones wait behind it
      // (one subscription's webhooks go one at a time): the call has not answered.
      while (held.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      // The sandbox answers another request meanwhile (it was free to answer the advance too), and
      // still shows a delivery under way.
      expect((await deliveries()).some((d) => d.status !== 'delivered')).toBe(true);
      expect(held).toHaveLength(1);
      expect(answered).toBe(false);
      release();
      const res = await call;
      expect(res.status).toBe(200);
      expect((await body<{ steps: number }>(res)).steps).toBe(5);
      // Answered after every attempt: all six webhooks delivered, none still under way.
      const atAnswer = await deliveries();
      expect(atAnswer).toHaveLength(6);
      expect(atAnswer.filter((d) => d.status === 'delivered')).toHaveLength(6);
    } finally {
      await close();
    }
  });
  it('with wait_for_webhooks false, does not wait for a webhook already under way when it begins', async () => {
    const { url, held, delivery, release, close } = await heldPayment(0);
    try {
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await advanceNotWaiting(url, 60)).toBe(0);
      expect(await delivery()).toMatchObject({ status: 'pending', attempts_count: 0 }); // still held by the merchant
      release();
      while ((await delivery()).status !== 'delivered') await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await delivery()).attempts_count).toBe(1);
    } finally {
      await close();
    }
  });

  it('with wait_for_webhooks false, starts a retry that falls due in the window without waiting for its answer', async () => {
    const { url, held, delivery, release, close } = await heldPayment(1);
    try {
      while ((await delivery()).attempts_count === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      // The retry is due 10 s after the refused first attempt: inside this advance; the merchant holds it.
      expect(await advanceNotWaiting(url, 11)).toBe(1);
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await delivery()).toMatchObject({ status: 'pending', attempts_count: 1 });
      release();
      while ((await delivery()).status !== 'delivered') await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await delivery()).attempts_count).toBe(2);
    } finally {
      await close();
    }
  });
});
