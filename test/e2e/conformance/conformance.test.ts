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
/** A read-only restricted key of each sandbox's direct account, minted through the control API. */
const readOnlyKeys = new Map<RunningSandbox, string>();

beforeAll(async () => {
  [sandbox, drifting] = await Promise.all([startSandbox({ quiet: true }), startSandbox({ quiet: true })]);
  for (const s of [sandbox, drifting])
    readOnlyKeys.set(s, (await s.apiKeys.create(s.credentials.direct.account_id, { scopes: ['transactions.read'] })).secret);
  proxy = await startDriftProxy(drifting.url, [
    'dropped_field',
    'changed_type',
    'error_code',
    'status',
    'repeated_record',
    'checkout_no_payment_url',
    'forbidden_as_unauthorized',
  ]);
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all([sandbox?.stop(), drifting?.stop()]);
});

/** The direct demo account only: the checkout and scope checks are skipped. */
const directOnly = (s: RunningSandbox, url = s.apiUrl) => ({
  url,
  apiKey: s.credentials.direct.api_key,
  accountId: s.credentials.direct.account_id,
});
/** Every option: the direct and checkout demo accounts, and a read-only restricted key. */
const target = (s: RunningSandbox, url = s.apiUrl) => ({
  ...directOnly(s, url),
  checkout: { apiKey: s.credentials.checkout.api_key, accountId: s.credentials.checkout.account_id },
  restrictedApiKey: readOnlyKeys.get(s)!,
});
const CHECKOUT_CHECKS = [
  'checkout.create',
  'checkout.read_back',
  'checkout.page',
  'checkout.accounts_isolated',
  'checkout.card_data_refused',
  'checkout.return_url_required',
];
const SCOPE_CHECKS = [
  'scopes.restricted_key_reads',
  'scopes.create_without_scope_forbidden',
  'scopes.refund_without_scope_forbidden',
  'scopes.checked_before_validation',
];
const failure = (report: ConformanceReport, name: string, side: 'result' | 'compare_result' = 'result') =>
  report.checks.find((c) => c.name === name)?.[side]?.failure ?? null;

/** The drifts and where the kit must see them: check name and JSON pointer. */
const EXPECTED: { drift: string; check: string; pointer: RegExp }[] = [
  { drift: 'a dropped field', check: 'buyers.page', pointer: /^\/body\/items\/0\/updated_at$/ },
  { drift: 'a changed type', check: 'refunds.partial', pointer: /^\/body\/refunded_amount$/ },
  { drift: 'another error code', check: 'auth.missing_bearer', pointer: /^\/body\/code$/ },
  { drift: 'another status', check: 'transactions.method_not_allowed', pointer: /^\/status$/ },
  { drift: 'a cursor that repeats a record', check: 'pages.forward', pointer: /^\/body\/items\/\d+\/id$/ },
  { drift: 'a checkout-mode create without payment_url', check: 'checkout.create', pointer: /^\/body\/payment_url$/ },
  { drift: 'a scope failure answered 401', check: 'scopes.create_without_scope_forbidden', pointer: /^\/status$/ },
];

describe('payment-sandbox conformance kit', () => {
  it('passes every check, at least 30 named ones, against a fresh sandbox within 30 s', async () => {
    const started = Date.now();
    const report = await runConformance(target(sandbox));
    const failed = report.checks.filter((c) => c.result.outcome === 'failed').map((c) => `${c.name}: ${c.result.failure?.message}`);
    expect(failed).toEqual([]);
    expect(report.checks.filter((c) => c.result.outcome !== 'passed').map((c) => c.name)).toEqual([]);
    for (const name of [...CHECKOUT_CHECKS, ...SCOPE_CHECKS]) expect(report.checks.map((c) => c.name)).toContain(name);
    expect(report.summary).toMatchObject({ failed: 0, skipped: 0, passed: report.checks.length });
    expect(report.checks.length).toBeGreaterThanOrEqual(30);
    expect(new Set(report.checks.map((c) => c.name)).size).toBe(report.checks.length);
    expect(conformancePassed(report)).toBe(true);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('skips the checkout and scope checks, with the reason, when their credentials are not given', async () => {
    const report = await runConformance({ ...directOnly(sandbox), compare: { ...target(sandbox) } });
    const skipped = report.checks.filter((c) => c.result.outcome === 'skipped');
    expect(skipped.map((c) => c.name).sort()).toEqual([...CHECKOUT_CHECKS, ...SCOPE_CHECKS].sort());
    for (const c of skipped) {
      expect(c.result.failure).toBeNull();
      expect(c.compare_result?.outcome).toBe('passed');
      expect(c.result.skip_reason).toMatch(c.name.startsWith('checkout.') ? /--checkout-api-key/ : /--restricted-api-key/);
    }
    expect(report.summary).toMatchObject({ failed: 0, skipped: skipped.length, differences: 0 });
    expect(report.summary.passed).toBe(report.checks.length - skipped.length);
    expect(conformancePassed(report)).toBe(true);
    const text = formatConformanceText(report);
    expect(text).toContain('SKIP  checkout.create');
    expect(text).toMatch(/SKIP {2}scopes\.create_without_scope_forbidden .*\n {6}skipped on http:\/\/[^ ]+\/v4: no restricted key given/);
    expect(text).not.toContain('PASS  checkout.create');
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
