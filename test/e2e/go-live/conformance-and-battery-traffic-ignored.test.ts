/**
 * Traffic that is not the merchant's is not counted by the go-live report, over real sockets:
 * the conformance kit run against a fresh sandbox's demo account (it names itself in its
 * `User-Agent`), and the check-webhooks battery run through the control API.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

// The whole kit and the battery: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
import { runConformance, startSandbox, type RunningSandbox } from '../../../src/index.js';
import { control } from '../../support/go-live-journeys.js';
import { startReceiver } from '../../support/receiver.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function sandbox(): Promise<RunningSandbox> {
  const s = await startSandbox({ quiet: true, ticker: false });
  cleanup.push(() => s.stop());
  return s;
}

describe('traffic that is not the merchant’s', () => {
  it('the conformance kit against the demo account leaves its report without live_key_used or missing_idempotency_key', async () => {
    const s = await sandbox();
    const { account_id: accountId, api_key: apiKey } = s.credentials.direct;
    await runConformance({ url: s.apiUrl, apiKey, accountId });
    const codes = (await s.report({ accountId })).findings.map((f) => f.code);
    expect(codes).not.toContain('live_key_used');
    expect(codes).not.toContain('missing_idempotency_key');
    expect(codes).not.toContain('repeated_invalid_request');
    expect(codes).not.toContain('card_data_in_checkout_mode');
  });

  it('the conformance kit without a notification URL leaves no finding, no coverage, and every recommended scenario missing', async () => {
    const s = await sandbox();
    const { account_id: accountId, api_key: apiKey } = s.credentials.direct;
    await runConformance({ url: s.apiUrl, apiKey, accountId });
    const report = await s.report({ accountId });
    expect(report.findings).toEqual([]);
    expect(report.coverage.filter((c) => c.seen)).toEqual([]);
    const gate = await s.report({ accountId, requireCoverage: 'recommended' });
    expect(gate.findings.map((f) => [f.code, f.scenario])).toEqual(
      ['payment_succeeded', 'payment_failed', 'refund', 'webhook_retry', 'webhook_duplicate', 'webhook_bad_signature'].map((scenario) => [
        'coverage_missing',
        scenario,
      ]),
    );
  });

  it('the check-webhooks battery through the control API leaves no finding and no coverage', async () => {
    const s = await sandbox();
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    // A careless handler: it acknowledges everything, bad signatures and forgeries included.
    await control(s.url, 'POST', '/check-webhooks', { url: receiver.url });
    expect(receiver.received.length).toBeGreaterThan(0);
    const report = await s.report();
    expect(report.findings).toEqual([]);
    expect(report.coverage).toEqual([]);
  });
});
