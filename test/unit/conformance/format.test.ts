/**
 * The conformance report's text and JUnit forms of a skipped check: `SKIP` with the reason on
 * the server it was skipped on, a JUnit `<skipped>` case counted in the suite, and a failure on
 * the other server winning over the skip.
 */
import { describe, expect, it } from 'vitest';
import { formatConformanceJunit, formatConformanceText } from '../../../src/features/conformance/format.js';
import type { CheckOutcome, ConformanceReport } from '../../../src/features/conformance/report.js';
import { junitProblems } from '../../support/junit-schema.js';

const passed: CheckOutcome = { outcome: 'passed', duration_ms: 5, failure: null, skip_reason: null };
const skipped: CheckOutcome = {
  outcome: 'skipped',
  duration_ms: 0,
  failure: null,
  skip_reason: 'no checkout-mode account given (--compare-checkout-api-key and --compare-checkout-account-id)',
};
const failed: CheckOutcome = {
  outcome: 'failed',
  duration_ms: 7,
  failure: { message: '/status is 401, expected 403', pointer: '/status', expected: '403', actual: 401, exchange: null },
  skip_reason: null,
};

const report = (checks: ConformanceReport['checks']): ConformanceReport => ({
  url: 'http://a.example/v4',
  compare_url: 'http://b.example/v4',
  generated_at: '2026-11-26T10:00:00.000Z',
  summary: { checks: checks.length, passed: 1, failed: 1, skipped: 1, differences: 0 },
  checks,
  differences: [],
});

const sample = report([
  { name: 'transactions.read_back', rule: 'reads', result: passed, compare_result: passed },
  { name: 'checkout.create', rule: 'creates in checkout mode', result: passed, compare_result: skipped },
  {
    name: 'scopes.create_without_scope_forbidden',
    rule: '403',
    result: failed,
    compare_result: { ...skipped, skip_reason: 'no restricted key given' },
  },
]);

describe('conformance report: skipped checks', () => {
  it('text: SKIP with the reason on the server it was skipped on; a failure on the other server is FAIL', () => {
    const text = formatConformanceText(sample);
    expect(text).toContain('PASS  transactions.read_back');
    expect(text).toContain(
      'SKIP  checkout.create  (creates in checkout mode)\n      skipped on http://b.example/v4: no checkout-mode account given (--compare-checkout-api-key',
    );
    expect(text).toContain('FAIL  scopes.create_without_scope_forbidden');
    expect(text).toContain('1 of 3 checks passed, 1 failed, 1 skipped, 0 differences');
  });

  it('junit: a <skipped message> case counted in the suite, valid for the JUnit readers', () => {
    const xml = formatConformanceJunit(sample, 'ci');
    expect(junitProblems(xml)).toEqual([]);
    expect(xml).toMatch(
      /<testcase name="checkout.create"[^>]*>\s*<skipped message="on http:\/\/b.example\/v4: no checkout-mode account given/,
    );
    expect(xml).toMatch(/<testcase name="scopes.create_without_scope_forbidden"[^>]*>\s*<failure message="\/status: /);
    expect(xml).toContain('failures="1" errors="0" skipped="1"');
  });

  it('the JUnit check refuses a skipped count that does not match the cases', () => {
    const xml = formatConformanceJunit(sample, 'ci').replace('skipped="1"', 'skipped="2"');
    expect(junitProblems(xml)).toEqual(['testsuite[0]: skipped="2" but 1 skipped']);
  });
});
