/**
 * The conformance kit over real sockets: every check passes against a fresh sandbox; a
 * drifting proxy in front of a sandbox makes the named checks fail at the JSON pointer that
 * drifted; comparing the sandbox with the proxy names the same places.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformancePassed, runConformance, startSandbox, type ConformanceReport, type RunningSandbox } from '../../../src/index.js';
import { formatConformanceText } from '../../../src/features/conformance/format.js';
import { startDriftProxy, type DriftProxy } from './drift-proxy.js';

let sandbox: RunningSandbox;
let drifting: RunningSandbox;
let proxy: DriftProxy;

beforeAll(async () => {
  [sandbox, drifting] = await Promise.all([startSandbox({ quiet: true }), startSandbox({ quiet: true })]);
  proxy = await startDriftProxy(drifting.url, ['dropped_field', 'changed_type', 'error_code', 'status', 'repeated_record']);
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all([sandbox?.stop(), drifting?.stop()]);
});

const target = (s: RunningSandbox, url = s.apiUrl) => ({
  url,
  apiKey: s.credentials.direct.api_key,
  accountId: s.credentials.direct.account_id,
});
const failure = (report: ConformanceReport, name: string, side: 'result' | 'compare_result' = 'result') =>
  report.checks.find((c) => c.name === name)?.[side]?.failure ?? null;

/** The drifts and where the kit must see them: check name and JSON pointer. */
const EXPECTED: { drift: string; check: string; pointer: RegExp }[] = [
  { drift: 'a dropped field', check: 'buyers.page', pointer: /^\/body\/items\/0\/updated_at$/ },
  { drift: 'a changed type', check: 'refunds.partial', pointer: /^\/body\/refunded_amount$/ },
  { drift: 'another error code', check: 'auth.missing_bearer', pointer: /^\/body\/code$/ },
  { drift: 'another status', check: 'transactions.method_not_allowed', pointer: /^\/status$/ },
  { drift: 'a cursor that repeats a record', check: 'pages.forward', pointer: /^\/body\/items\/\d+\/id$/ },
];

describe('payment-sandbox conformance kit', () => {
  it('passes every check, at least 30 named ones, against a fresh sandbox within 30 s', async () => {
    const started = Date.now();
    const report = await runConformance(target(sandbox));
    const failed = report.checks.filter((c) => c.result.outcome === 'failed').map((c) => `${c.name}: ${c.result.failure?.message}`);
    expect(failed).toEqual([]);
    expect(report.checks.length).toBeGreaterThanOrEqual(30);
    expect(new Set(report.checks.map((c) => c.name)).size).toBe(report.checks.length);
    expect(conformancePassed(report)).toBe(true);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('fails against a drifting server, naming the check and the JSON pointer for each kind of drift', async () => {
    const report = await runConformance(target(drifting, proxy.apiUrl));
    expect(conformancePassed(report)).toBe(false);
    for (const { drift, check, pointer } of EXPECTED) {
      const f = failure(report, check);
      expect(f, `${drift}: ${check} should fail`).not.toBeNull();
      expect(f!.pointer, drift).toMatch(pointer);
      expect(f!.exchange?.request.path, drift).toBeTypeOf('string');
    }
    const text = formatConformanceText(report);
    for (const { check } of EXPECTED) expect(text).toContain(`FAIL  ${check}`);
    if (process.env.CONFORMANCE_PRINT) console.log(text);
  });

  it('--compare-url: comparing the sandbox with the drifting server names the same differences', async () => {
    const report = await runConformance({ ...target(sandbox), compare: target(drifting, proxy.apiUrl) });
    expect(report.compare_url).toBe(proxy.apiUrl);
    expect(conformancePassed(report)).toBe(false);
    for (const { drift, check, pointer } of EXPECTED) {
      const diffs = report.differences.filter((d) => d.check === check);
      expect(
        diffs.some((d) => pointer.test(d.pointer)),
        `${drift}: ${JSON.stringify(diffs)}`,
      ).toBe(true);
      expect(failure(report, check, 'compare_result')).not.toBeNull();
      expect(failure(report, check)).toBeNull();
    }
    // values that differ by nature (ids, timestamps, cursors) are no difference
    expect(report.differences.filter((d) => d.check === 'idempotency.replay_same_body')).toEqual([]);
    expect(report.differences.filter((d) => d.check === 'refunds.full_remainder')).toEqual([]);
  });
});
