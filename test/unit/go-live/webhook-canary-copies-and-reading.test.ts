/**
 * The webhook canary on its own (fakes of its ports): after the first acknowledged ordinary
 * delivery to a URL of an account that has it, one `bad_signature` copy marked as a canary,
 * outside any queue, due now; once per URL of an account. And the report's reading of its
 * answer: acknowledged is `webhook_signature_not_verified`, refused is `webhook_bad_signature`
 * seen, and neither a refusal nor a silence is the merchant's missed delivery.
 */
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../../src/core/domain/entities.js';
import type { RecordedAttempt } from '../../../src/core/domain/ports.js';
import { parseCli } from '../../../src/cli.js';
import { webhookCanary } from '../../../src/features/go-live/go-live-canary.js';
import { GoLiveTracker } from '../../../src/features/go-live/go-live-tracker.js';
import type { GoLiveAccountState } from '../../../src/features/go-live/go-live-findings.js';
import type { ObservedAttempt } from '../../../src/features/go-live/go-live-observations.js';

const row = (over: Partial<Delivery> = {}): Delivery => ({
  seq: 1,
  id: 'd1',
  account_id: 'acc_a',
  kind: 'payment',
  resource_id: 'tx1',
  url: 'http://shop.test/hooks',
  body: '{"payment_status":"SUCCEEDED"}',
  signature: null,
  status: 'delivered',
  attempts: 1,
  simulated_failures: 0,
  simulated_failure_status: 503,
  fault: null,
  order_key: 'subscription:s1 http://shop.test/hooks',
  next_attempt_at: null,
  created_at: 0,
  updated_at: 0,
  delivered_at: 0,
  ...over,
});
const attempt = (delivery: Delivery, ok = true): RecordedAttempt<Delivery> => ({
  delivery,
  number: 1,
  ok,
  status: ok ? 200 : 500,
  contacted: true,
  timedOut: false,
  durationMs: 5,
});

function canary(enabled: (accountId: string) => boolean = () => true) {
  const rows: Omit<Delivery, 'seq'>[] = [];
  const queued: [string, number][] = [];
  let nudges = 0;
  const effects: (() => void)[] = [];
  const hear = webhookCanary({
    enabled,
    deliveries: {
      insert: (d) => void rows.push(d),
      hasCanary: (accountId, url) => rows.some((d) => d.account_id === accountId && d.url === url && d.canary === 1),
    },
    uow: {
      run: (work) => {
        const out = work();
        for (const effect of effects.splice(0)) effect();
        return out;
      },
      afterCommit: (effect) => void effects.push(effect),
    },
    clock: { nowMs: () => 5000, inAccount: (_id, work) => work() },
    queued: (id, at) => void queued.push([id, at]),
    nudge: () => void nudges++,
  });
  return { hear, rows, queued, nudges: () => nudges };
}

describe('the webhook canary', () => {
  it('after the first acknowledged delivery to a URL: one bad-signature copy marked as a canary, due now, in no queue', () => {
    const c = canary();
    const id = c.hear(attempt(row()));
    expect(id).toBeDefined();
    expect(c.rows).toHaveLength(1);
    expect(c.rows[0]).toMatchObject({
      id,
      account_id: 'acc_a',
      url: 'http://shop.test/hooks',
      body: '{"payment_status":"SUCCEEDED"}',
      fault: 'bad_signature',
      canary: 1,
      order_key: null,
      status: 'pending',
      next_attempt_at: 5000,
    });
    expect(c.queued).toEqual([[id, 5000]]);
    expect(c.nudges()).toBe(1);
  });

  it('once per URL of an account; another URL or another account has its own', () => {
    const c = canary();
    c.hear(attempt(row()));
    expect(c.hear(attempt(row({ id: 'd2' })))).toBeUndefined();
    expect(c.hear(attempt(row({ id: 'd3', url: 'http://shop.test/other' })))).toBeDefined();
    expect(c.hear(attempt(row({ id: 'd4', account_id: 'acc_b' })))).toBeDefined();
    expect(c.rows.map((d) => `${d.account_id} ${d.url}`)).toEqual([
      'acc_a http://shop.test/hooks',
      'acc_a http://shop.test/other',
      'acc_b http://shop.test/hooks',
    ]);
  });

  it('not after a refused delivery, a scripted fault copy, a canary, or for an account without it', () => {
    const c = canary((accountId) => accountId === 'acc_a');
    c.hear(attempt(row(), false));
    c.hear(attempt(row({ fault: 'duplicate' })));
    c.hear(attempt(row({ fault: 'bad_signature', canary: 1 })));
    c.hear(attempt(row({ account_id: 'acc_off' })));
    expect(c.rows).toEqual([]);
  });
});

describe("the report's reading of a canary", () => {
  function tracker(): GoLiveTracker {
    const saved = new Map<string, GoLiveAccountState>();
    return new GoLiveTracker({
      repo: { loadAll: () => saved, save: () => undefined, clear: () => saved.clear() },
      slowHandlerMs: 5000,
      timeoutMs: 10_000,
      now: () => '2026-11-25T10:00:00.000+00:00',
    });
  }
  const canaryAttempt = (over: Partial<ObservedAttempt>): ObservedAttempt => ({
    accountId: 'acc_a',
    deliveryId: 'c1',
    kind: 'payment',
    transactionId: 'tx1',
    fault: 'bad_signature',
    number: 1,
    ok: false,
    contacted: true,
    status: 401,
    timedOut: false,
    durationMs: 5,
    originalAcknowledged: false,
    canary: true,
    ...over,
  });

  it('refused: webhook_bad_signature seen, no finding', () => {
    const t = tracker();
    t.attempt(canaryAttempt({}));
    const report = t.report('acc_a');
    expect(report.findings).toEqual([]);
    expect(report.coverage.find((c) => c.scenario === 'webhook_bad_signature')?.seen).toBe(true);
  });

  it('acknowledged: webhook_signature_not_verified', () => {
    const t = tracker();
    t.attempt(canaryAttempt({ ok: true, status: 200 }));
    expect(t.report('acc_a').findings.map((f) => f.code)).toEqual(['webhook_signature_not_verified']);
  });

  it('only a refusal (4xx) marks webhook_bad_signature seen: not an acknowledgement, a 5xx or a silence', () => {
    const t = tracker();
    t.attempt(canaryAttempt({ ok: true, status: 200 }));
    t.attempt(canaryAttempt({ deliveryId: 'c2', status: 500 }));
    t.attempt(canaryAttempt({ deliveryId: 'c3', status: null, timedOut: true }));
    const required = t.report('acc_a', ['webhook_bad_signature']);
    expect(required.coverage.find((c) => c.scenario === 'webhook_bad_signature')?.seen).toBe(false);
    expect(required.findings.map((f) => f.code).sort()).toEqual(['coverage_missing', 'webhook_signature_not_verified']);
  });

  it('unanswered or slow: never a missed or failed delivery of the merchant', () => {
    const t = tracker();
    t.attempt(canaryAttempt({ status: null, timedOut: true, durationMs: 10_000 }));
    t.attempt(canaryAttempt({ deliveryId: 'c2', status: null }));
    t.attempt(canaryAttempt({ deliveryId: 'c2', status: null, number: 2 }));
    t.attempt(canaryAttempt({ deliveryId: 'c3', status: 500, durationMs: 6000 }));
    expect(t.report('acc_a').findings).toEqual([]);
  });
});

describe('the option', () => {
  it('is off by default; --webhook-canary or PAYMENT_SANDBOX_WEBHOOK_CANARY turns it on', () => {
    expect(parseCli([], {}).webhookCanary).toBe(false);
    expect(parseCli(['--webhook-canary'], {}).webhookCanary).toBe(true);
    expect(parseCli([], { PAYMENT_SANDBOX_WEBHOOK_CANARY: 'true' }).webhookCanary).toBe(true);
  });
});
