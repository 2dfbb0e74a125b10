/**
 * The go-live report as a CI log shows it, from a report built by hand: the text (findings by
 * severity with their evidence, the coverage checklist per account, the verdict for --fail-on)
 * and the JUnit document (a suite per account, a failed case per finding code, the checklist in
 * system-out, XML escaped). The `report` command over a sandbox: e2e/go-live.
 */
import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../../../src/features/go-live/go-live.js';
import { escapeXml, failingFindings, formatJunit, formatText } from '../../../src/features/go-live/report-format.js';
import type { GoLiveFinding, GoLiveReport } from '../../../src/features/go-live/report.schemas.js';

const finding = (overrides: Partial<GoLiveFinding>): GoLiveFinding => ({
  code: 'missing_idempotency_key',
  severity: 'warning',
  account_id: 'acc_a',
  title: 'Creates without an Idempotency-Key',
  detail: 'A retried create may charge twice.',
  evidence: { count: 2, request_ids: [3, 5] },
  fix: 'Send an Idempotency-Key on each create.',
  docs: 'docs/go-live.md#missing_idempotency_key',
  ...overrides,
});

const report: GoLiveReport = {
  generated_at: '2026-11-29T07:00:00.123+00:00',
  summary: { errors: 2, warnings: 1, infos: 1 },
  findings: [
    finding({}),
    finding({
      code: 'duplicate_charge_risk',
      severity: 'error',
      title: 'Two <charges> & one "order"',
      evidence: { count: 1, transaction_ids: ['tx_1'], delivery_ids: ['dlv_1'] },
    }),
    finding({ code: 'duplicate_charge_risk', severity: 'error', evidence: { count: 3 } }),
    finding({ code: 'live_key_used', severity: 'info', account_id: null, evidence: { count: 1 } }),
  ],
  coverage: [
    { scenario: 'payment_succeeded', account_id: 'acc_a', seen: true, how: 'settle a payment', docs: 'docs#a' },
    { scenario: 'refund', account_id: 'acc_a', seen: false, how: 'refund a payment', docs: 'docs#b' },
  ],
};

describe('the go-live report as text', () => {
  it('groups the findings by severity with their evidence, then the checklist and the verdict', () => {
    const text = formatText(report, 'http://127.0.0.1:4010', 'error');
    const lines = text.split('\n');
    expect(lines[0]).toBe('payment-sandbox go-live report for http://127.0.0.1:4010 (generated 2026-11-29T07:00:00.123+00:00)');
    expect(lines[1]).toBe('2 errors, 1 warning, 1 info');
    expect(text.indexOf('ERRORS (2)')).toBeLessThan(text.indexOf('WARNINGS (1)'));
    expect(text.indexOf('WARNINGS (1)')).toBeLessThan(text.indexOf('INFO (1)'));
    expect(text).toContain('  ERROR   duplicate_charge_risk  [account acc_a]\n');
    expect(text).toContain('          evidence: count 1; deliveries dlv_1; transactions tx_1\n');
    expect(text).toContain('          evidence: count 2; requests 3, 5\n');
    expect(text).toContain('  INFO    live_key_used  [no known account]\n');
    expect(text).toContain(
      '          fix: Send an Idempotency-Key on each create.\n          docs: docs/go-live.md#missing_idempotency_key\n',
    );
    expect(text).toContain(
      '\nCOVERAGE [account acc_a]: 1 of 2 scenarios seen\n  [x] payment_succeeded\n  [ ] refund                 how: refund a payment\n',
    );
    expect(lines.at(-1)).toBe('go-live: FAILED (2 findings at or above --fail-on error)');
    expect(formatText(report, 's', 'never').split('\n').at(-1)).toBe('go-live: passed (no finding at or above --fail-on never)');
  });

  it('an empty report says there are no findings and no traffic yet', () => {
    const empty: GoLiveReport = { ...report, summary: { errors: 0, warnings: 0, infos: 0 }, findings: [], coverage: [] };
    const text = formatText(empty, 's', 'warning');
    expect(text).toContain(
      '\n\nNo findings.\n\nCOVERAGE: no merchant traffic seen yet.\n\ngo-live: passed (no finding at or above --fail-on warning)',
    );
    expect(failingFindings(report, 'warning').map((f) => f.code)).toEqual([
      'missing_idempotency_key',
      'duplicate_charge_risk',
      'duplicate_charge_risk',
    ]);
    expect(failingFindings(report, 'info')).toHaveLength(4);
  });
});

describe('the go-live report as JUnit', () => {
  it('a suite per account, a case per finding code, one failure per code with each finding, escaped', () => {
    const xml = formatJunit(report, 'http://127.0.0.1:4010', 'ci-host');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n')).toBe(true);
    expect(xml.endsWith('</testsuites>\n')).toBe(true);
    const suites = xml.match(/<testsuite [^>]*>/g)!;
    expect(suites).toEqual([
      `<testsuite name="go-live acc_a" package="payment-sandbox" id="0" timestamp="2026-11-29T07:00:00" hostname="ci-host" tests="${FINDING_CODES.length}" failures="2" errors="0" time="0">`,
      `<testsuite name="go-live" package="payment-sandbox" id="1" timestamp="2026-11-29T07:00:00" hostname="ci-host" tests="${FINDING_CODES.length}" failures="1" errors="0" time="0">`,
    ]);
    expect(xml).toContain('<property name="account_id" value="acc_a"/>');
    expect(xml).toContain('<failure message="error: Two &lt;charges&gt; &amp; one &quot;order&quot; (4)" type="error">');
    expect(xml.match(/<testcase name="duplicate_charge_risk" classname="go-live.acc_a"/g)).toHaveLength(1);
    expect(xml).toContain('<testcase name="live_key_used" classname="go-live.sandbox" time="0">');
    expect(xml).toContain(
      '<system-out>Coverage: 1 of 2 scenarios seen\n[x] payment_succeeded\n[ ] refund                 how: refund a payment</system-out>',
    );
    expect(xml).toMatch(/<system-out>Coverage: no merchant traffic seen yet \(\d+ scenarios\)\.<\/system-out>/);
  });

  it('a report that names no account is one suite named go-live; control characters are dropped', () => {
    const xml = formatJunit({ ...report, findings: [], coverage: [] }, 'a\u0001b');
    expect(xml.match(/<testsuite /g)).toHaveLength(1);
    expect(xml).toContain('<testsuite name="go-live" package="payment-sandbox" id="0"');
    expect(xml).toContain('hostname="payment-sandbox"');
    expect(xml).toContain('<property name="source" value="ab"/>');
    expect(xml).not.toContain('<failure');
    expect(escapeXml('<a href="x">&\u0000</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });
});
