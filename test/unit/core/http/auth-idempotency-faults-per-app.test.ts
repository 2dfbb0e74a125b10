/**
 * What the /v4 pipeline keeps belongs to the app that made it: the JWT key cache of `apiAuth`, and the
 * faults `apiFaults` notes of a request, which it keeps in the request's exchange, so the body
 * gate replacing the raw request (a `; charset=utf-8` content type) does not lose them.
 * Fakes of the ports only: no composed sandbox.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../../../src/core/credentials/demo-credentials.js';
import type { Account } from '../../../../src/features/accounts/entities.js';
import { apiAuth, VerificationKeys } from '../../../../src/core/http/auth.js';
import { newExchange } from '../../../../src/core/http/exchange.js';
import { securedBy } from '../../../../src/core/http/pipeline.js';
import type { ApiEnv } from '../../../../src/core/http/env.js';
import { errorHandler } from '../../../../src/core/http/errors.js';
import { apiFaults } from '../../../../src/core/http/faults.js';
import { IDEMPOTENCY_TTL_MS, idempotency, idempotencyExpiry, SWEEP_INTERVAL_MS } from '../../../../src/core/http/idempotency.js';
import type { IdempotencyRepo } from '../../../../src/core/http/ports.js';
import { fakeClock } from '../../../support/fakes.js';

/** Unexpected errors answer 500 with the envelope; these tests do not log them. */
const onError = errorHandler({ error: () => undefined });

const demo = DEMO_ACCOUNTS[0]!;
const ACCOUNT: Account = {
  id: demo.account_id,
  name: demo.name,
  mode: demo.mode,
  api_key: demo.api_key,
  jwt_kid: demo.jwt_kid,
  jwt_private_key_pem: demo.jwt_private_key_pem,
  jwt_public_key_pem: demo.jwt_public_key_pem,
  created_at: 0,
};
const accounts = {
  byApiKey: (key: string) => (key === ACCOUNT.api_key ? ACCOUNT : undefined),
  byKid: (kid: string) => (kid === ACCOUNT.jwt_kid ? { ...ACCOUNT } : undefined),
};

function jwt(claims: Record<string, unknown>): string {
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const data = `${enc({ alg: 'RS256', typ: 'JWT', kid: ACCOUNT.jwt_kid })}.${enc(claims)}`;
  return `${data}.${sign('RSA-SHA256', Buffer.from(data), createPrivateKey(ACCOUNT.jwt_private_key_pem)).toString('base64url')}`;
}

/** A one-route app behind `apiAuth`'s guard. */
function guarded(keys: VerificationKeys) {
  const app = new Hono<ApiEnv>();
  app.onError(onError);
  const secured = securedBy(apiAuth({ accounts, apiKeys: { authenticate: () => undefined }, keys }), { bodyLimit: 1024 });
  app.get('/v4/transactions', secured('transactions.read'), (c) => c.json({ account: c.get('account').id }));
  return app;
}

describe('apiAuth', () => {
  it('parses the JWT key of a kid once per app, not once per request; another app has its own cache', async () => {
    const keysA = new VerificationKeys();
    const keysB = new VerificationKeys();
    const [a, b] = [guarded(keysA), guarded(keysB)];
    const now = Math.floor(Date.now() / 1000);
    const h = (exp: number) => ({
      authorization: `Bearer ${jwt({ scopes: ['transactions.read'], iat: now, exp })}`,
      'x-merchant-account-id': ACCOUNT.id,
    });
    const answers = await Promise.all(Array.from({ length: 8 }, () => a.request('/v4/transactions', { headers: h(now + 300) })));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect((await a.request('/v4/transactions', { headers: h(now + 301) })).status).toBe(200);
    expect(keysA.parses).toBe(1);
    expect(keysB.parses).toBe(0);
    expect((await b.request('/v4/transactions', { headers: h(now + 300) })).status).toBe(200);
    expect([keysA.parses, keysB.parses]).toEqual([1, 1]);
  });
});

describe('idempotency', () => {
  it('sweeps expired keys as timed work on the sandbox clock, never on a request: a create deletes nothing', async () => {
    const clock = fakeClock();
    const kept = new Map<string, number>();
    const sweeps: number[] = [];
    const records: IdempotencyRepo = {
      get: () => undefined,
      claim: () => {},
      complete: () => {},
      release: () => {},
      record: (_account, key, _fingerprint, at) => void kept.set(key, at),
      deleteExpired: (beforeMs) => {
        sweeps.push(beforeMs);
        let n = 0;
        for (const [key, at] of kept) {
          if (at > beforeMs) continue;
          kept.delete(key);
          n++;
        }
        return n;
      },
      hasKeys: () => kept.size > 0,
    };
    const expiry = idempotencyExpiry({ records, clock });
    expect(expiry.nextDueMs()).toBeNull();
    const idempotent = idempotency({ records, clock, atomically: (work) => work() });
    const hono = new Hono<ApiEnv>();
    hono.post('/v4/things', (c) => {
      c.set('account', ACCOUNT);
      return idempotent(c, 201, () => ({ ok: true }));
    });
    for (let i = 0; i < 600; i++) await hono.request('/v4/things', { method: 'POST', headers: { 'idempotency-key': `k-${i}` } });
    expect(sweeps).toEqual([]);
    const due = expiry.nextDueMs()!;
    // Keys first seen are swept at once (an advance may already have aged them), then every interval.
    expect(due).toBe(clock.nowMs());
    await expiry.runDue(due, false);
    expect(kept.size).toBe(600); // not 24 h old yet
    expect(expiry.nextDueMs()).toBe(due + SWEEP_INTERVAL_MS);
    clock.set(due + IDEMPOTENCY_TTL_MS);
    await expiry.runDue(clock.nowMs(), false);
    expect(kept.size).toBe(0);
    expect(expiry.nextDueMs()).toBeNull();
  });
});

describe('apiFaults', () => {
  /** `X-Sandbox-Fault` in front of a create that goes through the body gate; the create counts its runs. */
  function faulted(rule: string | null) {
    const runs: string[] = [];
    const faults = apiFaults({ scenarios: { apiFaultFor: () => (rule === null ? null : { rule: 'r1', fault: rule }) } });
    const secured = securedBy(apiAuth({ accounts, apiKeys: { authenticate: () => undefined } }), { bodyLimit: 1024 });
    const app = new Hono<ApiEnv>();
    app.onError(onError);
    // The pipeline's fault steps around the route, as its front runs them.
    const seen: MiddlewareHandler<ApiEnv> = async (c, next) => {
      const exchange = newExchange();
      c.set('exchange', exchange);
      const asked = faults.asked(c, exchange);
      await next();
      const { played } = await faults.after(c, exchange, asked);
      runs.push(`played: ${played ? 'yes' : 'no'}`);
    };
    app.use('*', seen);
    app.post('/v4/transactions', secured('transactions.write'), async (c) => {
      await faults.scenarioFault(c, { kind: 'transaction', amount: 1, currency: 'USD' });
      runs.push('created');
      return c.json({ id: 'tx_1' }, 201);
    });
    return { app, runs };
  }
  const post = (app: Hono<ApiEnv>, extra: Record<string, string> = {}) =>
    app.request('/v4/transactions', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ACCOUNT.api_key}`,
        'x-merchant-account-id': ACCOUNT.id,
        'content-type': 'application/json; charset=utf-8',
        ...extra,
      },
      body: '{"amount":1}',
    });

  it('plays 503-after once the create ran, also when the body gate rewrote the content type', async () => {
    const { app, runs } = faulted(null);
    const res = await post(app, { 'x-sandbox-fault': '503-after' });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('service_unavailable');
    expect(runs).toEqual(['created', 'played: yes']);
  });

  it("plays a scenario rule's after-execution fault, and tells the go-live report; another app's rules are its own", async () => {
    const ruled = faulted('reset-after');
    const plain = faulted(null);
    const res = await post(ruled.app);
    expect(res.status).toBe(503);
    expect(ruled.runs).toEqual(['created', 'played: yes']);
    expect((await post(plain.app)).status).toBe(201);
    expect(plain.runs).toEqual(['created', 'played: no']);
  });
});
