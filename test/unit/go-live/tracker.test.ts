/**
 * The go-live tracker's rules on their own (no HTTP, no SQLite): exact counts with capped
 * evidence, bounded windows, and the cases that must not raise a finding (never cry wolf).
 */
import { describe, expect, it } from 'vitest';
import { EVIDENCE_IDS_MAX, COVERAGE_SCENARIOS } from '../../../src/features/go-live/go-live.js';
import { GoLiveTracker } from '../../../src/features/go-live/go-live-tracker.js';
import { TRACKER_ENTRIES_MAX, type ObservedAttempt, type ObservedRequest } from '../../../src/features/go-live/go-live-observations.js';
import { type GoLiveAccountState } from '../../../src/features/go-live/go-live-findings.js';

function tracker(saved = new Map<string, GoLiveAccountState>()) {
  const saves: string[] = [];
  const t = new GoLiveTracker({
    repo: {
      loadAll: () => saved,
      save: (id, state) => (saves.push(id), saved.set(id, structuredClone(state))),
      clear: () => saved.clear(),
    },
    slowHandlerMs: 5000,
    timeoutMs: 10_000,
    now: () => '2026-11-25T10:00:00.000+00:00',
  });
  return { t, saved, saves };
}

let seq = 0;
const request = (over: Partial<ObservedRequest> = {}): ObservedRequest => ({
  requestId: ++seq,
  accountId: 'acc_a',
  method: 'GET',
  path: '/v4/transactions',
  status: 200,
  executedStatus: over.status ?? 200,
  idempotencyKey: null,
  replayed: false,
  liveKey: false,
  cardDataInCheckout: false,
  ignoredWebhookField: false,
  fault: false,
  retryAfterS: null,
  create: null,
  createdTransaction: null,
  createdRefund: null,
  answerDelivered: true,
  transactionId: null,
  readPending: false,
  fingerprint: () => `${over.method ?? 'GET'} ${over.path ?? '/v4/transactions'}`,
  atMs: 0,
  realMs: 0,
  ...over,
});
const create = (id: string, over: Partial<ObservedRequest> = {}, ext: string | null = 'order-1') =>
  request({
    method: 'POST',
    status: 201,
    executedStatus: 201,
    create: 'transaction',
    createdTransaction: { id, amount: 1000, currency: 'USD', external_identifier: ext },
    ...over,
  });
const attempt = (over: Partial<ObservedAttempt> = {}): ObservedAttempt => ({
  accountId: 'acc_a',
  deliveryId: `d${++seq}`,
  kind: 'payment',
  transactionId: 'tx1',
  fault: null,
  number: 1,
  ok: true,
  contacted: true,
  status: 200,
  timedOut: false,
  durationMs: 20,
  originalAcknowledged: false,
  canary: false,
  ...over,
});
const codes = (t: GoLiveTracker) => t.report().findings.map((f) => f.code);

describe('evidence', () => {
  it('counts exactly and keeps the first ids only', () => {
    const { t } = tracker();
    for (let i = 0; i < 100; i++) t.request(create(`tx${i}`, { idempotencyKey: null }, `order-${i}`));
    const [finding] = t.report().findings;
    expect(finding).toMatchObject({ code: 'missing_idempotency_key', evidence: { count: 100 } });
    expect(finding!.evidence.request_ids).toHaveLength(EVIDENCE_IDS_MAX);
    expect(finding!.evidence.transaction_ids).toEqual(Array.from({ length: EVIDENCE_IDS_MAX }, (_, i) => `tx${i}`));
  });
});

describe('duplicate_charge_risk', () => {
  it('is two creates of one order under different or no keys within 10 minutes', () => {
    const { t } = tracker();
    t.request(create('tx1', { idempotencyKey: 'k1' }));
    t.request(create('tx2', { idempotencyKey: 'k2', atMs: 60_000 }));
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence).toMatchObject({
      count: 1,
      transaction_ids: ['tx1', 'tx2'],
    });
  });

  it('is not a replay under the same key, a create 10 minutes later, or another order', () => {
    const { t } = tracker();
    t.request(create('tx1', { idempotencyKey: 'k1' }));
    t.request(create('tx1', { idempotencyKey: 'k1', replayed: true }));
    t.request(create('tx3', { idempotencyKey: 'k3', atMs: 10 * 60_000 + 1 }));
    t.request(create('tx4', { idempotencyKey: 'k4', atMs: 10 * 60_000 + 2 }, 'order-2'));
    // Without external_identifier only the same body is the same order.
    t.request(create('tx5', { fingerprint: () => 'body-a' }, null));
    t.request(create('tx6', { fingerprint: () => 'body-b' }, null));
    expect(codes(t)).not.toContain('duplicate_charge_risk');
    t.request(create('tx7', { fingerprint: () => 'body-a' }, null));
    expect(codes(t)).toContain('duplicate_charge_risk');
  });

  it('takes two identical bodies under two different keys, without an external_identifier, for two orders', () => {
    const { t } = tracker();
    t.request(create('tx1', { idempotencyKey: 'order-1', fingerprint: () => 'body-a' }, null));
    t.request(create('tx2', { idempotencyKey: 'order-2', fingerprint: () => 'body-a', atMs: 1000 }, null));
    // One keyed, one not: the keyless one is not a retry of a keyed create either.
    t.request(create('tx3', { fingerprint: () => 'body-a', atMs: 2000 }, null));
    expect(codes(t)).not.toContain('duplicate_charge_risk');
  });

  it('takes two identical keyless bodies without an external_identifier for one order within 60 seconds only', () => {
    const { t } = tracker();
    t.request(create('tx1', { fingerprint: () => 'body-a' }, null));
    t.request(create('tx2', { fingerprint: () => 'body-a', atMs: 61_000 }, null));
    expect(codes(t)).not.toContain('duplicate_charge_risk');
    t.request(create('tx3', { fingerprint: () => 'body-a', atMs: 90_000 }, null));
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence).toMatchObject({
      count: 1,
      transaction_ids: ['tx2', 'tx3'],
    });
  });

  it('tells the merchant to reuse its key, never to send a sandbox-only field', () => {
    const { t } = tracker();
    t.request(create('tx1', { idempotencyKey: 'k1' }));
    t.request(create('tx2', { idempotencyKey: 'k2' }));
    const finding = t.report().findings.find((f) => f.code === 'duplicate_charge_risk')!;
    expect(finding.fix).toContain('Idempotency-Key');
    expect(`${finding.fix} ${finding.detail}`).not.toMatch(/sandbox_|X-Sandbox|_sandbox/i);
  });
});

describe('duplicate_charge_risk: money intents', () => {
  const lost = (id: string, over: Partial<ObservedRequest> = {}) => create(id, { answerDelivered: false, ...over }, null);

  it('is a create of the same body under a new key within 10 minutes after one whose answer never reached the client', () => {
    const { t } = tracker();
    t.request(lost('tx1', { idempotencyKey: 'k1', fingerprint: () => 'body-a' }));
    t.request(create('tx2', { idempotencyKey: 'k2', fingerprint: () => 'body-a', atMs: 5 * 60_000 }, null));
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence).toMatchObject({
      count: 1,
      transaction_ids: ['tx1', 'tx2'],
    });
    // Another body, or more than 10 minutes later: another order.
    t.request(lost('tx3', { idempotencyKey: 'k3', fingerprint: () => 'body-b', atMs: 6 * 60_000 }));
    t.request(create('tx4', { idempotencyKey: 'k4', fingerprint: () => 'body-c', atMs: 6 * 60_000 }, null));
    t.request(create('tx5', { idempotencyKey: 'k5', fingerprint: () => 'body-b', atMs: 16 * 60_000 + 1 }, null));
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence.count).toBe(1);
  });

  it('hears a lost answer learnt after the create was observed', () => {
    const { t } = tracker();
    const first = create('tx1', { idempotencyKey: 'k1', fingerprint: () => 'body-a' }, null);
    t.request(first);
    t.undelivered({ ...first, answerDelivered: false });
    t.request(create('tx2', { idempotencyKey: 'k2', fingerprint: () => 'body-a', atMs: 1000 }, null));
    expect(codes(t)).toContain('duplicate_charge_risk');
  });

  it('is no duplicate when the earlier payment of the order had FAILED when the later one was created', () => {
    const { t } = tracker();
    t.request(create('tx1', { idempotencyKey: 'k1' }));
    t.outcome({
      accountId: 'acc_a',
      transactionId: 'tx1',
      status: 'FAILED',
      noTarget: false,
      subscription: false,
      linkExpired: false,
      renewal: false,
      atMs: 0,
    });
    t.request(create('tx2', { idempotencyKey: 'k2', atMs: 1000 }));
    expect(codes(t)).not.toContain('duplicate_charge_risk');
    // Once the order is paid for again (tx2 not failed), a third payment is a duplicate.
    t.request(create('tx3', { idempotencyKey: 'k3', atMs: 2000 }));
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence.transaction_ids).toEqual(['tx2', 'tx3']);
  });
});

describe('duplicate rules: creates judged in the order they started, whatever order they were logged in', () => {
  const failed = (transactionId: string, atMs: number) => ({
    accountId: 'acc_a',
    transactionId,
    status: 'FAILED' as const,
    noTarget: false,
    subscription: false,
    linkExpired: false,
    renewal: false,
    atMs,
  });
  const body = (id: string, over: Partial<ObservedRequest>) => create(id, { fingerprint: () => 'body-a', ...over }, null);

  it('pairs a lost create logged after the retry that started after it', () => {
    const { t } = tracker();
    const retry = body('tx2', { idempotencyKey: 'k2', atMs: 300 });
    const first = body('tx1', { idempotencyKey: 'k1', atMs: 0, answerDelivered: false });
    t.request(retry);
    t.request(first);
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence).toMatchObject({
      count: 1,
      request_ids: [first.requestId, retry.requestId],
      transaction_ids: ['tx1', 'tx2'],
    });
  });

  it('pairs a create learnt lost after the retry that started after it was logged', () => {
    const { t } = tracker();
    const first = body('tx1', { idempotencyKey: 'k1', atMs: 0 });
    t.request(first);
    t.request(body('tx2', { idempotencyKey: 'k2', atMs: 300 }));
    expect(codes(t)).not.toContain('duplicate_charge_risk');
    t.undelivered({ ...first, answerDelivered: false });
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence).toMatchObject({
      count: 1,
      transaction_ids: ['tx1', 'tx2'],
    });
  });

  it('never pairs a create with one that started after it, or more than 10 minutes after it', () => {
    const { t } = tracker();
    // A lost create that started after the other: the other is no retry of it.
    t.request(body('tx1', { idempotencyKey: 'k1', atMs: 1000, answerDelivered: false }));
    t.request(body('tx2', { idempotencyKey: 'k2', atMs: 0 }));
    // A lost create logged after one that started more than 10 minutes after it.
    t.request(create('tx4', { idempotencyKey: 'k4', atMs: 10 * 60_000 + 1 }, null));
    t.request(create('tx3', { idempotencyKey: 'k3', atMs: 0, answerDelivered: false }, null));
    expect(codes(t)).not.toContain('duplicate_charge_risk');
  });

  it('judges one order by its FAILED status when the later payment started, whichever was logged first', () => {
    const { t } = tracker();
    // Declined at once, logged after the retry: no duplicate.
    t.outcome(failed('tx1', 10));
    t.request(create('tx2', { idempotencyKey: 'k2', atMs: 1000 }));
    t.request(create('tx1', { idempotencyKey: 'k1', atMs: 0 }));
    expect(codes(t)).not.toContain('duplicate_charge_risk');
    // Failed only after the later payment started: both charge the order.
    t.request(create('tx4', { idempotencyKey: 'k4', atMs: 20 * 60_000 + 1000 }, 'order-2'));
    t.outcome(failed('tx3', 20 * 60_000 + 5000));
    t.request(create('tx3', { idempotencyKey: 'k3', atMs: 20 * 60_000 }, 'order-2'));
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence).toMatchObject({
      count: 1,
      transaction_ids: ['tx3', 'tx4'],
    });
  });

  it('pairs two keyless bodies within 60 seconds in the order they started', () => {
    const { t } = tracker();
    t.request(body('tx2', { atMs: 30_000 }));
    t.request(body('tx1', { atMs: 0 }));
    expect(t.report().findings.find((f) => f.code === 'duplicate_charge_risk')?.evidence.transaction_ids).toEqual(['tx1', 'tx2']);
  });

  it('pairs a lost refund logged, or learnt lost, after the retry that started after it', () => {
    const refund = (id: string, over: Partial<ObservedRequest>) =>
      request({
        method: 'POST',
        path: '/v4/transactions/tx1/refunds',
        status: 201,
        executedStatus: 201,
        create: 'refund',
        transactionId: 'tx1',
        createdRefund: { id, transactionId: 'tx1', amount: 500 },
        fingerprint: () => 'refund 500',
        ...over,
      });
    const { t } = tracker();
    t.request(refund('rf2', { idempotencyKey: 'r2', atMs: 300 }));
    t.request(refund('rf1', { idempotencyKey: 'r1', atMs: 0, answerDelivered: false }));
    expect(t.report().findings.find((f) => f.code === 'duplicate_refund_risk')?.evidence.count).toBe(1);
    const first = refund('rf3', { idempotencyKey: 'r3', atMs: 60 * 60_000 });
    t.request(first);
    t.request(refund('rf4', { idempotencyKey: 'r4', atMs: 60 * 60_000 + 300 }));
    t.undelivered({ ...first, answerDelivered: false });
    expect(t.report().findings.find((f) => f.code === 'duplicate_refund_risk')?.evidence.count).toBe(2);
  });
});

describe('duplicate_refund_risk', () => {
  const refund = (id: string, over: Partial<ObservedRequest> = {}, amount = 500) =>
    request({
      method: 'POST',
      path: '/v4/transactions/tx1/refunds',
      status: 201,
      executedStatus: 201,
      create: 'refund',
      transactionId: 'tx1',
      createdRefund: { id, transactionId: 'tx1', amount },
      fingerprint: () => `refund ${amount}`,
      ...over,
    });

  it('is a refund of the same transaction and amount under a new key after one whose answer never reached the client', () => {
    const { t } = tracker();
    t.request(refund('rf1', { idempotencyKey: 'r1', answerDelivered: false }));
    t.request(refund('rf2', { idempotencyKey: 'r2', atMs: 30_000 }));
    const finding = t.report().findings.find((f) => f.code === 'duplicate_refund_risk');
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 1, transaction_ids: ['tx1'] } });
    expect(finding!.evidence.request_ids).toHaveLength(2);
    expect(finding!.docs).toBe('docs/go-live.md#duplicate_refund_risk');
  });

  it('takes two equal partial refunds whose answers both arrived for two refunds; two keyless ones within 60 s for one', () => {
    const { t } = tracker();
    t.request(refund('rf1', { idempotencyKey: 'r1' }));
    t.request(refund('rf2', { idempotencyKey: 'r2', atMs: 1000 }));
    // Another amount, or a lost answer of another amount: another intent.
    t.request(refund('rf3', { idempotencyKey: 'r3', answerDelivered: false, atMs: 2000 }, 200));
    t.request(refund('rf4', { idempotencyKey: 'r4', atMs: 3000 }, 300));
    t.request(refund('rf5', { atMs: 10_000 }, 100));
    t.request(refund('rf6', { atMs: 71_000 }, 100));
    expect(codes(t)).not.toContain('duplicate_refund_risk');
    t.request(refund('rf7', { atMs: 100_000 }, 100));
    expect(t.report().findings.find((f) => f.code === 'duplicate_refund_risk')?.evidence.count).toBe(1);
  });

  it('hears a lost answer learnt after the refund was observed', () => {
    const { t } = tracker();
    const first = refund('rf1', { idempotencyKey: 'r1' });
    t.request(first);
    t.undelivered({ ...first, answerDelivered: false });
    t.request(refund('rf2', { idempotencyKey: 'r2', atMs: 1000 }));
    expect(codes(t)).toContain('duplicate_refund_risk');
  });
});

describe('repeated_invalid_request', () => {
  it('needs the same request refused three times', () => {
    const { t } = tracker();
    t.request(request({ status: 400 }));
    t.request(request({ status: 400 }));
    t.request(request({ status: 400, fingerprint: () => 'another' }));
    expect(codes(t)).toEqual([]);
    t.request(request({ status: 400 }));
    // The first is the original: only the third sending repeated a request refused twice.
    const [finding] = t.report().findings;
    expect(finding).toMatchObject({ code: 'repeated_invalid_request', evidence: { count: 1 } });
    expect(finding!.evidence.request_ids).toHaveLength(3);
    expect(finding!.detail).toMatch(/^1 request repeated/);
    t.request(request({ status: 400 }));
    expect(t.report().findings[0]!.evidence.count).toBe(2);
  });

  it('does not count 429, 409, asked-for faults or live keys', () => {
    const { t } = tracker();
    for (let i = 0; i < 5; i++) {
      t.request(request({ status: 409 }));
      t.request(request({ status: 503, fault: true }));
      t.request(request({ status: 400, fault: true }));
    }
    expect(codes(t)).toEqual([]);
  });

  it('keeps a bounded window: the oldest requests are forgotten first', () => {
    const { t } = tracker();
    t.request(request({ status: 400, fingerprint: () => 'first' }));
    t.request(request({ status: 400, fingerprint: () => 'first' }));
    for (let i = 0; i < TRACKER_ENTRIES_MAX; i++) t.request(request({ status: 404, fingerprint: () => `other-${i}` }));
    t.request(request({ status: 400, fingerprint: () => 'first' }));
    expect(codes(t)).toEqual([]);
  });
});

describe('ignored_retry_after and polling', () => {
  it('is a repeat before Retry-After, not after it', () => {
    const { t } = tracker();
    t.request(request({ status: 429, retryAfterS: 5, fault: true, realMs: 0 }));
    t.request(request({ realMs: 6000 }));
    expect(codes(t)).toEqual([]);
    t.request(request({ status: 429, retryAfterS: 5, fault: true, realMs: 10_000 }));
    t.request(request({ realMs: 10_500 }));
    expect(codes(t)).toEqual(['ignored_retry_after']);
  });

  it('is a repeat of a 429 under the same key or, as it, none; another key is another request', () => {
    const { t } = tracker();
    const basket = { method: 'POST', path: '/v4/transactions', fingerprint: () => 'basket' };
    t.request(request({ ...basket, status: 429, retryAfterS: 5, idempotencyKey: 'customer-1', realMs: 0 }));
    t.request(request({ ...basket, status: 201, idempotencyKey: 'customer-2', realMs: 100 }));
    t.request(request({ ...basket, status: 429, retryAfterS: 5, realMs: 200 }));
    t.request(request({ ...basket, status: 201, idempotencyKey: 'customer-3', realMs: 300 }));
    expect(codes(t)).toEqual([]);
    t.request(request({ ...basket, status: 201, idempotencyKey: 'customer-1', realMs: 400 }));
    expect(codes(t)).toEqual(['ignored_retry_after']);
    t.request(request({ ...basket, status: 201, realMs: 500 }));
    expect(t.report().findings[0]!.evidence.count).toBe(2);
  });

  it('is more than ten reads of one pending transaction, counted once per transaction', () => {
    const { t } = tracker();
    for (let i = 0; i < 10; i++) t.request(request({ readPending: true, transactionId: 'tx1' }));
    expect(codes(t)).toEqual([]);
    for (let i = 0; i < 20; i++) t.request(request({ readPending: true, transactionId: 'tx1' }));
    expect(t.report().findings[0]).toMatchObject({ code: 'polling_instead_of_webhooks', evidence: { count: 1, transaction_ids: ['tx1'] } });
  });
});

describe('webhook attempts', () => {
  it('finds a URL unreachable when one delivery got no HTTP answer on two attempts', () => {
    const { t } = tracker();
    const refused = { ok: false, status: null, deliveryId: 'd-refused' };
    t.attempt(attempt(refused));
    // A timeout is an answer too late, not no answer; another delivery's single failure is not two.
    t.attempt(attempt({ ok: false, status: null, timedOut: true, durationMs: 10_000, deliveryId: 'd-slow' }));
    t.attempt(attempt({ ok: false, status: null, timedOut: true, durationMs: 10_000, deliveryId: 'd-slow' }));
    t.attempt(attempt({ ok: false, status: null, deliveryId: 'd-other' }));
    expect(codes(t)).not.toContain('webhook_unreachable');
    t.attempt(attempt({ ...refused, number: 2 }));
    t.attempt(attempt({ ...refused, number: 3 }));
    const finding = t.report().findings.find((f) => f.code === 'webhook_unreachable')!;
    expect(finding).toMatchObject({ severity: 'error', evidence: { count: 1, delivery_ids: ['d-refused'] } });
    expect(finding.fix).toContain('docs/ci.md');
  });

  it('does not blame the merchant for refusing a bad signature, or for failures the sandbox simulated', () => {
    const { t } = tracker();
    t.attempt(attempt({ fault: 'bad_signature', ok: false, status: 401 }));
    t.attempt(attempt({ contacted: false, ok: false, status: 503 }));
    t.attempt(attempt({ number: 4 }));
    expect(codes(t)).toEqual([]);
    const seen = t
      .report()
      .coverage.filter((c) => c.seen)
      .map((c) => c.scenario);
    expect(seen.sort()).toEqual(['webhook_bad_signature', 'webhook_retry']);
  });

  it('tells a refused duplicate from a refused first copy, and a timeout from a slow answer', () => {
    const { t } = tracker();
    t.attempt(attempt({ fault: 'duplicate', ok: false, status: 500, originalAcknowledged: true }));
    t.attempt(attempt({ fault: 'duplicate', ok: false, status: 500, originalAcknowledged: false }));
    t.attempt(attempt({ ok: false, status: null, timedOut: true, durationMs: 10_000 }));
    t.attempt(attempt({ durationMs: 6000 }));
    expect(codes(t).sort()).toEqual([
      'webhook_duplicate_not_tolerated',
      'webhook_not_acknowledged',
      'webhook_slow_handler',
      'webhook_timeout',
    ]);
  });
});

describe('live_key_used', () => {
  it('is raised for a live key without a known account, with account_id null, in every report whatever its filter', () => {
    const { t, saved } = tracker();
    t.request(request({ liveKey: true, status: 401, accountId: null }));
    t.request(request({ liveKey: true, status: 401 }));
    for (const report of [t.report(), t.report('acc_a'), t.report('acc_b')]) {
      expect(report.findings.filter((f) => f.code === 'live_key_used').map((f) => f.account_id)).toContain(null);
    }
    expect(
      t
        .report('acc_a')
        .findings.map((f) => f.account_id)
        .sort(),
    ).toEqual(['acc_a', null].sort());
    expect(t.report('acc_b').findings.map((f) => f.account_id)).toEqual([null]);
    // No coverage is listed for "no account", and it survives a restart.
    expect(t.report().coverage.every((c) => c.account_id === 'acc_a')).toBe(true);
    expect(tracker(saved).t.report()).toEqual(t.report());
  });
});

describe('no_webhook_target and ignored_webhook_field', () => {
  it('names the field of the resource concerned: notification_url for a transaction, payment_method.webhooks_url for a subscription', () => {
    const one = tracker().t;
    one.outcome({
      accountId: 'acc_a',
      transactionId: 'tx1',
      status: 'SUCCEEDED',
      noTarget: true,
      linkExpired: false,
      renewal: false,
      atMs: 0,
      subscription: true,
    });
    const subFix = one.report().findings[0]!.fix;
    expect(subFix).toContain('payment_method.webhooks_url');
    expect(subFix).not.toContain('notification_url on');
    const two = tracker().t;
    two.outcome({
      accountId: 'acc_a',
      transactionId: 'tx1',
      status: 'SUCCEEDED',
      noTarget: true,
      linkExpired: false,
      renewal: false,
      atMs: 0,
      subscription: false,
    });
    const txFix = two.report().findings[0]!.fix;
    expect(txFix).toContain('notification_url');
    expect(txFix).not.toContain('webhooks_url');
  });

  it('is a warning for a subscription create that carried a top-level notification_url', () => {
    const { t } = tracker();
    t.request(
      request({
        method: 'POST',
        path: '/v4/subscriptions',
        status: 201,
        create: 'subscription',
        idempotencyKey: 'k',
        ignoredWebhookField: true,
      }),
    );
    expect(t.report().findings[0]).toMatchObject({ code: 'ignored_webhook_field', severity: 'warning', evidence: { count: 1 } });
    expect(t.report().findings[0]!.fix).toContain('payment_method.webhooks_url');
  });
});

describe('the report', () => {
  it('links every finding to its entry on the go-live docs page, anchored by its code', () => {
    const { t } = tracker();
    t.request(request({ liveKey: true, status: 401 }));
    t.request(create('tx1'));
    for (const f of t.report().findings) expect(f.docs).toBe(`docs/go-live.md#${f.code}`);
  });

  it("lists one account's coverage even before any traffic, and survives a restart through its repository", () => {
    const { t, saved } = tracker();
    expect(t.report('acc_new').coverage.map((c) => c.scenario)).toEqual([...COVERAGE_SCENARIOS]);
    t.request(request({ liveKey: true, status: 401 }));
    t.outcome({
      accountId: 'acc_a',
      transactionId: 'tx1',
      status: 'SUCCEEDED',
      noTarget: false,
      linkExpired: false,
      renewal: false,
      atMs: 0,
      subscription: false,
    });
    const again = tracker(saved).t;
    expect(again.report()).toEqual(t.report());
    again.clear();
    expect(again.report()).toMatchObject({ findings: [], coverage: [] });
    expect(saved.size).toBe(0);
  });
});
