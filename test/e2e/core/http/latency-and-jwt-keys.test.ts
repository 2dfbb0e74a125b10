/**
 * Over a real socket: `--latency` holds back every /v4 answer, whatever the method (a GET,
 * a POST, an idempotent POST, POST /v4/subscriptions/{id}/cancel), and a JWT is accepted on
 * many requests at once. Lower bounds only: no test here depends on how fast the machine is.
 * (That the key of a `kid` is parsed once per app is shown by
 * test/unit/core/http/auth-idempotency-faults-per-app.test.ts:
 * the cache belongs to the app's `apiAuth`, with no handle from outside.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { directSubscription } from '../../../support/subscriptions.js';
import { DIRECT, directPayment, headers, jwt } from '../../../support/app.js';

const LATENCY_MS = 300;
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false, latency: { p50Ms: LATENCY_MS, p99Ms: LATENCY_MS } });
});
afterAll(() => server.stop());

/** Runs a request and returns its status and how long the answer took, in ms. */
async function timed(
  method: string,
  path: string,
  h: Record<string, string>,
  payload?: unknown,
): Promise<{ status: number; ms: number; json: Record<string, unknown> }> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: h,
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, ms: performance.now() - started, json };
}

describe('--latency', () => {
  it('applies to every /v4 method: GET, POST, idempotent POST and cancel', async () => {
    const get = await timed('GET', '/v4/transactions', headers());
    const post = await timed('POST', '/v4/transactions', headers(), directPayment());
    const keyed = await timed('POST', '/v4/transactions', headers(DIRECT, { 'idempotency-key': 'latency-1' }), directPayment());
    const sub = await timed('POST', '/v4/subscriptions', headers(DIRECT, { 'x-forwarded-for': '203.0.113.7' }), directSubscription());
    const cancel = await timed('POST', `/v4/subscriptions/${String(sub.json.id)}/cancel`, headers());
    const refused = await timed('POST', '/v4/transactions', headers(), { amount: 'ten' });
    expect([get.status, post.status, keyed.status, sub.status, cancel.status, refused.status]).toEqual([200, 201, 201, 201, 200, 400]);
    for (const [name, call] of Object.entries({ get, post, keyed, sub, cancel, refused })) {
      expect(call.ms, name).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    }
  });
});

describe('JWT verification keys', () => {
  it('verify a kid on many requests at once', async () => {
    const now = Math.floor(Date.now() / 1000);
    const h = { ...headers(), authorization: `Bearer ${jwt({ scopes: ['transactions.read'], iat: now, exp: now + 300 })}` };
    const calls = await Promise.all(Array.from({ length: 8 }, () => fetch(`${server.url}/v4/transactions`, { headers: h })));
    expect(calls.map((r) => r.status)).toEqual(Array(8).fill(200));
    const again = await fetch(`${server.url}/v4/transactions`, {
      headers: { ...h, authorization: `Bearer ${jwt({ scopes: ['transactions.read'], iat: now, exp: now + 301 })}` },
    });
    expect(again.status).toBe(200);
  });
});
