/**
 * Coverage as a gate: each required scenario an account of the report has not seen is a
 * `coverage_missing` finding (error) with its `how`; `recommended` names the documented set;
 * an unknown name is a usage error listing the valid names; the JUnit document keeps one test
 * case per rule however many scenarios are missing.
 */
import { describe, expect, it } from 'vitest';
import {
  COVERAGE_HOW,
  COVERAGE_SCENARIOS,
  FINDING_CODES,
  RECOMMENDED_COVERAGE,
  parseRequiredCoverage,
} from '../../../src/features/go-live/go-live.js';
import { GoLiveTracker } from '../../../src/features/go-live/go-live-tracker.js';
import type { GoLiveAccountState } from '../../../src/features/go-live/go-live-findings.js';
import { formatJunit } from '../../../src/features/go-live/report-format.js';

function tracker(): GoLiveTracker {
  const saved = new Map<string, GoLiveAccountState>();
  return new GoLiveTracker({
    repo: { loadAll: () => saved, save: () => undefined, clear: () => saved.clear() },
    slowHandlerMs: 5000,
    timeoutMs: 10_000,
    now: () => '2026-11-25T10:00:00.000+00:00',
  });
}

describe('parseRequiredCoverage', () => {
  it('recommended names the documented set; names are kept once, in order', () => {
    expect(RECOMMENDED_COVERAGE).toEqual([
      'payment_succeeded',
      'payment_failed',
      'refund',
      'webhook_retry',
      'webhook_duplicate',
      'webhook_bad_signature',
    ]);
    expect(parseRequiredCoverage('recommended')).toEqual({ scenarios: [...RECOMMENDED_COVERAGE] });
    expect(parseRequiredCoverage(' api_fault, refund,api_fault ,recommended')).toEqual({
      scenarios: ['api_fault', 'refund', ...RECOMMENDED_COVERAGE.filter((s) => s !== 'refund')],
    });
  });

  it('an unknown name is an error that lists every valid name', () => {
    const parsed = parseRequiredCoverage('refund,refunds');
    expect('error' in parsed && parsed.error).toContain('"refunds"');
    for (const name of ['recommended', ...COVERAGE_SCENARIOS]) expect('error' in parsed && parsed.error).toContain(name);
    expect('error' in parseRequiredCoverage(' , ')).toBe(true);
  });
});

describe('coverage_missing', () => {
  it('is an error finding for each required scenario not seen, with its how', () => {
    const t = tracker();
    t.outcome({
      accountId: 'acc_a',
      transactionId: 'tx1',
      status: 'SUCCEEDED',
      atMs: 0,
      noTarget: false,
      subscription: false,
      linkExpired: false,
      renewal: false,
    });
    t.refund('acc_a', false);
    const report = t.report('acc_a', ['payment_succeeded', 'refund', 'webhook_retry', 'api_fault']);
    const missing = report.findings.filter((f) => f.code === 'coverage_missing');
    expect(missing.map((f) => f.scenario)).toEqual(['webhook_retry', 'api_fault']);
    expect(missing[0]).toMatchObject({
      severity: 'error',
      account_id: 'acc_a',
      fix: COVERAGE_HOW.webhook_retry.how,
      docs: 'docs/go-live.md#coverage_missing',
      evidence: { count: 1 },
    });
    expect(missing[0]!.detail).toContain('webhook_retry');
    expect(report.summary.errors).toBe(2);
    // Without the gate, no such finding.
    expect(t.report('acc_a').findings).toEqual([]);
  });

  it('with no traffic at all, each required scenario is missing without an account', () => {
    const report = tracker().report(undefined, ['payment_succeeded']);
    expect(report.findings).toMatchObject([{ code: 'coverage_missing', account_id: null, scenario: 'payment_succeeded' }]);
  });

  it('JUnit: one test case per rule; coverage_missing fails once, listing every missing scenario', () => {
    const report = tracker().report('acc_a', ['payment_failed', 'webhook_duplicate']);
    const xml = formatJunit(report, 'http://sandbox');
    expect(xml.match(/<testcase name="coverage_missing"/g)).toHaveLength(1);
    expect(xml).toContain(`tests="${FINDING_CODES.length}" failures="1"`);
    const failure = /<testcase name="coverage_missing"[^>]*>\s*<failure message="error: [^"]*\(2\)"[^>]*>([^<]*)<\/failure>/.exec(xml);
    expect(failure?.[1]).toContain('payment_failed');
    expect(failure?.[1]).toContain('webhook_duplicate');
  });
});
