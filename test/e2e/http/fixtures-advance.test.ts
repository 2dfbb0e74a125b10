/**
 * A fixture's `then: "advance:<seconds>"` over a real socket: the clock moves as
 * `POST /_sandbox/clock/advance` moves it, yielding between slices of steps, so the sandbox
 * answers health checks while a long fixture advance runs, and the state it ends in is the
 * state the control API's advance produces. At start (`--fixtures`), requests that arrive
 * while the fixtures are applied wait: the first answer sees them all.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { headers } from '../../support/app.js';
import { directSubscription } from '../../support/subscriptions.js';

type Json = Record<string, unknown>;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
}, 120_000);

async function start(): Promise<RunningServer> {
  const server = await startServer({ port: 0 }, { logger: createLogger({ quiet: true, err: () => undefined }) });
  cleanup.push(() => server.stop());
  return server;
}

// 1,000 renewals per advance: long enough that a server frozen by it answers one or two of the
// probes below instead of dozens, on a loaded machine too.
const SUBSCRIPTIONS = 50;
const DAYS = 20;
const ADVANCE_SECONDS = DAYS * 86_400;
// At start, a tenth of that: the advance still outlasts the first request's retries (every 20 ms).
const START_SUBSCRIPTIONS = 10;
const START_DAYS = 10;

/** `SUBSCRIPTIONS` daily subscriptions (no webhook target: the end state depends on the clock alone); the last one may advance the clock. */
function document(then?: string, subscriptions = SUBSCRIPTIONS): Json {
  return {
    fixtures: Array.from({ length: subscriptions }, (_, i) => {
      const body = directSubscription({
        external_identifier: `daily-${i}`,
        plan: { name: 'Daily', currency: 'USD', amount: 900, interval: 'day' },
      });
      const { webhooks_url: _target, ...paymentMethod } = body.payment_method as Json;
      return {
        name: `sub${i}`,
        account: 'direct',
        create: 'subscription',
        body: { ...body, payment_method: paymentMethod },
        ...(then !== undefined && i === subscriptions - 1 ? { then } : {}),
      };
    }),
  };
}

async function request(server: RunningServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Every page of a /v4 list. */
async function all(server: RunningServer, path: string): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  do {
    const res = await fetch(`${server.url}${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: headers() });
    const page = (await res.json()) as { items: Json[]; next_cursor?: string | null };
    items.push(...page.items);
    cursor = page.next_cursor ?? null;
  } while (cursor);
  return items;
}

/** What the advance left: the clock's offset, each subscription's status, the payments by status. */
async function endState(server: RunningServer): Promise<Json> {
  const clock = (await request(server, 'GET', '/_sandbox/clock')).body;
  const subscriptions = await all(server, '/v4/subscriptions');
  const transactions = await all(server, '/v4/transactions');
  const count = (values: string[]): Record<string, number> =>
    values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
  return {
    offset_seconds: clock.offset_seconds,
    subscriptions: count(subscriptions.map((s) => String(s.status))),
    transactions: transactions.length,
    transaction_statuses: count(transactions.map((t) => String(t.status))),
  };
}

describe("a fixture's advance yields like the control API's", () => {
  it('health answers quickly while a long fixture advance runs, and the end state equals the control API advance', async () => {
    const server = await start();
    let running = true;
    const latencies: number[] = [];
    const probe = (async () => {
      while (running) {
        const started = performance.now();
        try {
          const res = await fetch(`${server.url}/_sandbox/health`);
          await res.arrayBuffer();
          latencies.push(performance.now() - started);
        } catch {
          latencies.push(Infinity); // no answer at all (a connection the frozen server dropped)
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const applied = await request(server, 'POST', '/_sandbox/fixtures', document(`advance:${ADVANCE_SECONDS}`));
    running = false;
    await probe;
    expect(applied.status).toBe(201);
    // The advance ran long enough to matter (a probe every 5 ms: a frozen server answers one or
    // two, after the advance), and health kept answering throughout.
    expect(latencies.length).toBeGreaterThan(10);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    const byFixture = await endState(server);
    expect(byFixture.transactions).toBeGreaterThanOrEqual(SUBSCRIPTIONS * DAYS);

    // The same document without the advance, then the control API's advance, on a second sandbox.
    const other = await start();
    expect((await request(other, 'POST', '/_sandbox/fixtures', document())).status).toBe(201);
    const advanced = await request(other, 'POST', '/_sandbox/clock/advance', { seconds: ADVANCE_SECONDS, wait_for_webhooks: false });
    expect(advanced.status).toBe(200);
    expect(byFixture).toEqual(await endState(other));
  }, 600_000);

  it('at start, a request that arrives while the fixtures advance the clock waits, and sees them all applied', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const starting = startServer(
      { port, fixtures: [document(`advance:${START_DAYS * 86_400}`, START_SUBSCRIPTIONS)] },
      { logger: createLogger({ quiet: true, err: () => undefined }) },
    );
    cleanup.push(async () => (await starting).stop());
    // The first answer the sandbox gives (retried while it is not listening yet) shows the whole advance.
    let first: Response | undefined;
    while (first === undefined) {
      first = await fetch(`http://127.0.0.1:${port}/_sandbox/clock`).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return undefined;
      });
    }
    expect(first.status).toBe(200);
    expect(((await first.json()) as Json).offset_seconds).toBe(START_DAYS * 86_400);
    const server = await starting;
    expect(await endState(server)).toMatchObject({ offset_seconds: START_DAYS * 86_400, subscriptions: { active: START_SUBSCRIPTIONS } });
    expect(Object.keys(server.fixtures)).toHaveLength(START_SUBSCRIPTIONS);
  }, 600_000);
});
