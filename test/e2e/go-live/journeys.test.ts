/**
 * The go-live report over real sockets: a careless merchant and a careful one play against a
 * sandbox started in-process with its real server (`startSandbox`, its `report()`), with a
 * real webhook receiver as their handler. The careless one is told every mistake, in every
 * form, with evidence that opens in the request and delivery logs; the careful one gets no
 * finding and full coverage.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

// Journeys of many requests and webhooks: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
import { startSandbox, type GoLiveFinding, type GoLiveFindingCode, type GoLiveReport, type RunningSandbox } from '../../../src/index.js';
import { COVERAGE_SCENARIOS, FINDING_CODES } from '../../../src/features/go-live/go-live.js';
import { carefulJourney, carelessJourney, control } from '../../support/go-live-journeys.js';
import { startReceiver } from '../../support/receiver.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(
  withNotificationUrl = false,
): Promise<{ sandbox: RunningSandbox; receiver: Awaited<ReturnType<typeof startReceiver>> }> {
  const receiver = await startReceiver();
  // A 2 s delivery timeout: a handler slower than 1 s is slow, one slower than 2 s times out.
  const sandbox = await startSandbox({
    ticker: false,
    deliveryTimeoutMs: 2000,
    ...(withNotificationUrl ? { notificationUrl: receiver.url } : {}),
  });
  cleanup.push(
    () => receiver.close(),
    () => sandbox.stop(),
  );
  return { sandbox, receiver };
}

const byCode = (report: GoLiveReport, code: GoLiveFindingCode): GoLiveFinding => {
  const found = report.findings.find((f) => f.code === code);
  if (!found) throw new Error(`no ${code} finding in ${JSON.stringify(report.findings.map((f) => f.code))}`);
  return found;
};

describe('the go-live report of a careless merchant', () => {
  it('names every mistake, with evidence that opens in the request and delivery logs', async () => {
    const { sandbox, receiver } = await setup();
    const run = await carelessJourney(sandbox.url, receiver);
    const report = await sandbox.report();

    // Every finding code, errors first; live_key_used for the account and for no known account.
    // Every code but the state check's, which needs a state URL (test/e2e/go-live/state-check.test.ts),
    // and the coverage gate's, which needs a list of required scenarios
    // (test/e2e/go-live/report-command-require-coverage.test.ts).
    const raised = FINDING_CODES.filter((c) => c !== 'webhook_state_mismatch' && c !== 'coverage_missing');
    expect(new Set(report.findings.map((f) => f.code))).toEqual(new Set(raised));
    const severities = report.findings.map((f) => f.severity);
    expect(severities).toEqual(
      [...severities].sort((a, b) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b)),
    );
    const count = (severity: string) => report.findings.filter((f) => f.severity === severity).length;
    expect(report.summary).toEqual({ errors: count('error'), warnings: count('warning'), infos: count('info') });
    expect(report.findings.filter((f) => f.code === 'live_key_used').map((f) => f.account_id)).toEqual([null, run.account.account_id]);
    for (const f of report.findings) {
      expect(f.fix.length).toBeGreaterThan(20);
      expect(f.docs).toBe(`docs/go-live.md#${f.code}`);
      expect(f.evidence.count).toBeGreaterThan(0);
    }

    // Creates without keys: payments, a refund and a subscription.
    const missing = byCode(report, 'missing_idempotency_key');
    expect(missing).toMatchObject({ severity: 'warning', account_id: run.account.account_id });
    expect(missing.evidence.transaction_ids).toEqual(expect.arrayContaining([run.first, run.slow, run.hanging, run.silent]));
    // One order created twice: under a new key after the timeout, twice without a key, and one body twice without a key.
    const duplicate = byCode(report, 'duplicate_charge_risk');
    expect(duplicate).toMatchObject({ severity: 'error', evidence: { count: 3 } });
    expect(new Set(duplicate.evidence.transaction_ids)).toEqual(
      new Set([run.lostAnswer, run.retried, ...run.keylessTwice, ...run.sameBodyTwice]),
    );
    expect(`${duplicate.fix}`).not.toMatch(/external_identifier|sandbox/i);
    // A refund whose answer never came, made again under a new key.
    expect(byCode(report, 'duplicate_refund_risk')).toMatchObject({
      severity: 'error',
      evidence: { count: 1, transaction_ids: [run.retried] },
    });
    // Polling the transaction whose answer was lost.
    expect(byCode(report, 'polling_instead_of_webhooks')).toMatchObject({
      severity: 'info',
      evidence: { count: 1, transaction_ids: [run.polled] },
    });
    // A handler that acknowledges everything, bad signatures included.
    const badSignature = byCode(report, 'webhook_signature_not_verified');
    expect(badSignature).toMatchObject({ severity: 'error', evidence: { count: 1, transaction_ids: [run.first] } });
    // A handler that fails the duplicate delivery.
    const dup = byCode(report, 'webhook_duplicate_not_tolerated');
    // (each retry of it, ten seconds of sandbox time later, is refused again)
    expect(dup).toMatchObject({ severity: 'warning', evidence: { transaction_ids: [run.first] } });
    expect(dup.evidence.count).toBeGreaterThanOrEqual(1);
    // Not acknowledged: an error status, and a 200 without the acknowledgement body.
    expect(byCode(report, 'webhook_not_acknowledged').evidence).toMatchObject({ count: 2 });
    expect(new Set(byCode(report, 'webhook_not_acknowledged').evidence.transaction_ids)).toEqual(
      new Set([run.retried, run.refusedWebhook]),
    );
    expect(byCode(report, 'webhook_slow_handler').evidence).toMatchObject({ count: 1, transaction_ids: [run.slow] });
    expect(byCode(report, 'webhook_timeout').evidence).toMatchObject({ count: 1, transaction_ids: [run.hanging] });
    // A URL nobody listens on, refused twice; its fix points to the CI recipes.
    const unreachable = byCode(report, 'webhook_unreachable');
    expect(unreachable).toMatchObject({ severity: 'error', evidence: { count: 1, transaction_ids: [run.unreachable] } });
    expect(unreachable.fix).toContain('docs/ci.md');
    // Nowhere to send the webhook: a payment and a subscription's charge, each field named.
    const noTarget = byCode(report, 'no_webhook_target');
    expect(noTarget.evidence.count).toBe(2);
    expect(noTarget.evidence.transaction_ids).toContain(run.silent);
    expect(noTarget.fix).toContain('notification_url');
    expect(noTarget.fix).toContain('payment_method.webhooks_url');
    expect(byCode(report, 'ignored_webhook_field')).toMatchObject({ severity: 'warning', evidence: { count: 1 } });
    // Three identical invalid requests: the third repeated one refused twice.
    expect(byCode(report, 'repeated_invalid_request').evidence).toMatchObject({ count: 1 });
    // A read and a create (under the same key) sent again at once after their 429.
    expect(byCode(report, 'ignored_retry_after').evidence).toMatchObject({ count: 2 });
    expect(report.findings.find((f) => f.code === 'live_key_used' && f.account_id === run.account.account_id)).toMatchObject({
      severity: 'error',
      evidence: { count: 1 },
    });
    expect(report.findings.find((f) => f.code === 'live_key_used' && f.account_id === null)).toMatchObject({
      severity: 'error',
      evidence: { count: 1 },
    });
    // Card data from checkout, under the spec's names and others, accepted and refused.
    expect(byCode(report, 'card_data_in_checkout_mode')).toMatchObject({
      severity: 'error',
      account_id: run.checkout.account_id,
      evidence: { count: 4 },
    });

    // Each request id is in the request log, each delivery id in the delivery log, under that account.
    for (const f of report.findings) {
      for (const id of f.evidence.request_ids ?? []) {
        const page = await control(
          sandbox.url,
          'GET',
          f.account_id === null ? '/requests?limit=100' : `/requests?account_id=${f.account_id}&limit=100`,
        );
        expect(
          (page.items as { id: number }[]).some((r) => r.id === id),
          `${f.code}: request ${id}`,
        ).toBe(true);
      }
      for (const id of f.evidence.delivery_ids ?? []) {
        const delivery = (await sandbox.deliveries()).find((d) => d.id === id);
        expect(delivery?.merchant_account_id, `${f.code}: delivery ${id}`).toBe(f.account_id);
      }
    }
    const [signatureDelivery] = badSignature.evidence.delivery_ids!;
    expect((await sandbox.deliveries()).find((d) => d.id === signatureDelivery)).toMatchObject({ fault: 'bad_signature' });
    const [dupDelivery] = dup.evidence.delivery_ids!;
    expect((await sandbox.deliveries()).find((d) => d.id === dupDelivery)).toMatchObject({ fault: 'duplicate' });
    const requests = (await control(sandbox.url, 'GET', `/requests?account_id=${run.account.account_id}&limit=100`)).items as {
      id: number;
      status: number;
      path: string;
      idempotency_key: string | null;
      warnings: string[];
    }[];
    const invalidIds = byCode(report, 'repeated_invalid_request').evidence.request_ids!;
    expect(invalidIds.map((id) => requests.find((r) => r.id === id)?.status)).toEqual([400, 400, 400]);
    expect(duplicate.evidence.request_ids!.map((id) => requests.find((r) => r.id === id)?.idempotency_key)).toEqual(
      expect.arrayContaining(['checkout-7f1c-attempt-1', 'checkout-7f1c-attempt-2']),
    );
    // The subscription's log entry says its notification_url was ignored.
    const [ignoredId] = byCode(report, 'ignored_webhook_field').evidence.request_ids!;
    expect(requests.find((r) => r.id === ignoredId)?.warnings.join(' ')).toContain('payment_method.webhooks_url');

    // One account's report (a live key without an account is in every report); coverage of what it went through.
    const own = await sandbox.report({ accountId: run.checkout.account_id });
    expect(own.findings.map((f) => [f.code, f.account_id])).toEqual([
      ['live_key_used', null],
      ['card_data_in_checkout_mode', run.checkout.account_id],
    ]);
    expect(own.coverage).toHaveLength(COVERAGE_SCENARIOS.length);
    const coverage = (await sandbox.report({ accountId: run.account.account_id })).coverage;
    expect(
      coverage
        .filter((c) => c.seen)
        .map((c) => c.scenario)
        .sort(),
    ).toEqual(['api_fault', 'payment_succeeded', 'refund', 'partial_refund', 'webhook_bad_signature'].sort());

    // Reset clears findings and coverage.
    await sandbox.reset();
    const after = await sandbox.report();
    expect(after).toMatchObject({ summary: { errors: 0, warnings: 0, infos: 0 }, findings: [], coverage: [] });
  });
});

describe('the go-live report of a careful merchant', () => {
  it('has no finding and full coverage', async () => {
    const { sandbox, receiver } = await setup(true);
    const { account } = await carefulJourney(sandbox.url, receiver);
    const report = await sandbox.report({ accountId: account.account_id });
    expect(report.findings).toEqual([]);
    expect(report.summary).toEqual({ errors: 0, warnings: 0, infos: 0 });
    expect(report.coverage.filter((c) => !c.seen).map((c) => c.scenario)).toEqual([]);
    expect(report.coverage.map((c) => c.scenario)).toEqual([...COVERAGE_SCENARIOS]);
    // The coverage gate passes: every recommended scenario, and every other one, was seen.
    const gated = await sandbox.report({ accountId: account.account_id, requireCoverage: ['recommended', ...COVERAGE_SCENARIOS] });
    expect(gated.findings).toEqual([]);
    // The sandbox-wide report holds nothing else either: the control API, the panel's reads
    // and the check-webhooks battery never count.
    await control(sandbox.url, 'POST', '/check-webhooks', { url: receiver.url });
    for (let i = 0; i < 15; i++) await control(sandbox.url, 'GET', `/transactions?account_id=${account.account_id}`);
    expect((await sandbox.report()).findings).toEqual([]);
  });
});
