/**
 * The conformance kit over real sockets: every check passes against a fresh sandbox; a
 * drifting proxy in front of a sandbox makes the named checks fail at the JSON pointer that
 * drifted; comparing the sandbox with the proxy names the same places; comparing a used
 * sandbox with a fresh one finds nothing; an answer past 1 MiB is a failed check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConformanceCredentialsError,
  conformancePassed,
  runConformance,
  startSandbox,
  type ConformanceReport,
  type RunningSandbox,
} from '../../../src/index.js';
import { formatConformanceText } from '../../../src/features/conformance/format.js';
import { cardPayment } from '../../../src/features/conformance/check-helpers.js';
import { checkoutPayment } from '../../../src/features/conformance/checks-modes.js';
import { until } from '../../support/until.js';
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
    'list_item_dropped_field',
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
    // a field missing from the check's own records on a page is a difference, though no check asserts it
    expect(report.differences).toContainEqual(
      expect.objectContaining({
        check: 'pages.envelope',
        pointer: '/body/items/0/description',
        url_value: 'string',
        compare_value: 'missing',
      }),
    );
    // values that differ by nature (ids, timestamps, cursors) are no difference
    expect(report.differences.filter((d) => d.check === 'idempotency.replay_same_body')).toEqual([]);
    expect(report.differences.filter((d) => d.check === 'refunds.full_remainder')).toEqual([]);
  });

  it('fails a named idempotency check against a server that replays the record as it is now, not the stored first answer', async () => {
    const replaying = await startDriftProxy(drifting.url, ['replay_current_record']);
    try {
      const report = await runConformance(directOnly(drifting, replaying.apiUrl));
      const failed = report.checks.filter((c) => c.result.outcome === 'failed');
      expect(failed.map((c) => c.name)).toEqual(['idempotency.replay_after_change']);
      expect(failed[0]!.result.failure).toMatchObject({ pointer: '/body/refunded_amount', expected: '0', actual: 200 });
      expect(failed[0]!.result.failure?.message).toContain('differs from the first answer');
    } finally {
      await replaying.close();
    }
  });

  it('--compare-url: a used sandbox and a fresh one of the same build compare equal', async () => {
    const [used, fresh] = await Promise.all([startSandbox({ quiet: true }), startSandbox({ quiet: true })]);
    try {
      for (const s of [used, fresh])
        readOnlyKeys.set(s, (await s.apiKeys.create(s.credentials.direct.account_id, { scopes: ['transactions.read'] })).secret);
      // payments of both accounts before the run, some refunded, some declined: more than a page of each
      await useSandbox(used, 45);
      const report = await runConformance({ ...target(used), compare: target(fresh) });
      expect(report.differences).toEqual([]);
      expect(report.summary.failed).toBe(0);
      expect(conformancePassed(report)).toBe(true);
    } finally {
      await Promise.all([used.stop(), fresh.stop()]);
    }
  });

  it('a restricted key refused on its first call rejects the run with ConformanceCredentialsError naming its option', async () => {
    const account = sandbox.credentials.direct.account_id;
    const minted = await sandbox.apiKeys.create(account, { scopes: ['transactions.read'] });
    await sandbox.apiKeys.revoke(account, minted.id);
    const run = runConformance({ ...directOnly(sandbox), restrictedApiKey: minted.secret });
    await expect(run).rejects.toBeInstanceOf(ConformanceCredentialsError);
    await expect(run).rejects.toMatchObject({ option: '--restricted-api-key', request: 'GET /transactions?limit=2' });
  });

  it('reads at most 1 MiB of an answer: an endless body and a gzip bomb are failed checks naming the limit, and the run goes on', async () => {
    const huge = await startDriftProxy(drifting.url, ['endless_body', 'gzip_bomb']);
    try {
      const report = await runConformance(directOnly(drifting, huge.apiUrl));
      const failed = report.checks.filter((c) => c.result.outcome === 'failed');
      // GET /buyers answers without end; DELETE /transactions a small gzip body that inflates past 1 MiB
      expect(failed.map((c) => c.name).sort()).toEqual([
        'buyers.bad_limit',
        'buyers.forward',
        'buyers.page',
        'transactions.method_not_allowed',
      ]);
      for (const c of failed) {
        expect(c.result.failure).toMatchObject({ pointer: '/body', expected: 'at most 1 MiB (1048576 bytes)' });
        expect(c.result.failure?.message).toContain('larger than 1 MiB');
      }
      expect(report.summary.passed).toBe(report.checks.length - failed.length - report.summary.skipped);
      // the kit stopped reading and hung up long before the endless bodies' end
      await until(
        'the endless bodies to end',
        () => (huge.streamed.filter((s) => s.drift === 'endless_body').length === 3 ? true : undefined),
        10_000,
      );
      for (const s of huge.streamed.filter((b) => b.drift === 'endless_body')) {
        expect(s.abandoned).toBe(true);
        expect(s.bytes).toBeLessThan(32 * 1024 * 1024);
      }
    } finally {
      await huge.close();
    }
  });
});

/** Uses a sandbox as a shop would for a while: `n` payments over both demo accounts, every third one partly refunded, some declined. */
async function useSandbox(s: RunningSandbox, n: number): Promise<void> {
  const call = async (account: 'direct' | 'checkout', path: string, body: unknown): Promise<{ id: string; status: string }> => {
    const res = await fetch(s.apiUrl + path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${s.credentials[account].api_key}`,
        'x-merchant-account-id': s.credentials[account].account_id,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    expect(res.status, path).toBe(201);
    return (await res.json()) as { id: string; status: string };
  };
  for (let i = 0; i < n; i += 1) {
    if (i % 5 === 4) {
      await call('checkout', '/transactions', checkoutPayment({ metadata: { order: `used-${i}` } }));
      continue;
    }
    const card = i % 7 === 6 ? '4000000000000002' : '4242424242424242';
    const payment = cardPayment({
      amount: 1000 + i,
      payment_method: { type: 'card', number: card, expiration_date: '12/30', security_code: '123' },
    });
    const tx = await call('direct', '/transactions', payment);
    if (i % 3 === 0 && tx.status === 'SUCCEEDED') await call('direct', `/transactions/${tx.id}/refunds`, { amount: 100 });
  }
}
