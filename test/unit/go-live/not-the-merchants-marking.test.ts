/**
 * The transactions and subscriptions marked as not the merchant's (created by the conformance
 * kit): kept with the report's saved state, so a restart on the same database still knows
 * them, and never a reason to list an account in the report.
 */
import { describe, expect, it } from 'vitest';
import { GoLiveTracker } from '../../../src/features/go-live/go-live-tracker.js';
import { NOT_MERCHANTS_MAX } from '../../../src/features/go-live/go-live-observations.js';
import { type GoLiveAccountState } from '../../../src/features/go-live/go-live-findings.js';

function tracker(saved: Map<string, GoLiveAccountState>, clone = true): GoLiveTracker {
  return new GoLiveTracker({
    repo: {
      loadAll: () => new Map([...saved].map(([id, state]) => [id, structuredClone(state)])),
      save: (id, state) => void saved.set(id, clone ? structuredClone(state) : state),
      clear: () => saved.clear(),
    },
    slowHandlerMs: 5000,
    timeoutMs: 10_000,
    now: () => '2026-11-25T10:00:00.000+00:00',
  });
}

describe('what is marked as not the merchant’s', () => {
  it('is known per account, and again after a restart over the saved state', () => {
    const saved = new Map<string, GoLiveAccountState>();
    const first = tracker(saved);
    first.notTheMerchants('acc_a', 'tx_kit');
    first.notTheMerchants('acc_a', 'sub_kit');
    const again = tracker(saved);
    expect(['tx_kit', 'sub_kit', 'tx_shop'].map((id) => again.isNotTheMerchants('acc_a', id))).toEqual([true, true, false]);
    expect(again.isNotTheMerchants('acc_b', 'tx_kit')).toBe(false);
    expect(again.isNotTheMerchants('acc_a', null)).toBe(false);
  });

  it('lists no account and no coverage in the report, and a required scenario is still missing', () => {
    const t = tracker(new Map());
    t.notTheMerchants('acc_a', 'tx_kit');
    const report = t.report(undefined, ['payment_succeeded']);
    expect(report.coverage).toEqual([]);
    expect(report.findings.map((f) => [f.code, f.account_id, f.scenario])).toEqual([['coverage_missing', null, 'payment_succeeded']]);
  });

  it('is bounded per account (the oldest forgotten first), and forgotten by a reset', () => {
    const t = tracker(new Map(), false);
    for (let i = 0; i <= NOT_MERCHANTS_MAX; i++) t.notTheMerchants('acc_a', `tx_${i}`);
    expect([t.isNotTheMerchants('acc_a', 'tx_0'), t.isNotTheMerchants('acc_a', 'tx_1')]).toEqual([false, true]);
    t.clear();
    expect(t.isNotTheMerchants('acc_a', `tx_${NOT_MERCHANTS_MAX}`)).toBe(false);
  });
});
