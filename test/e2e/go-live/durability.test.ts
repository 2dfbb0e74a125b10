/**
 * The go-live report's aggregates over real sockets: request-log retention never loses a
 * finding (the report keeps exact counts after the log has pruned the requests), and with
 * `--db` a file, findings and coverage survive a restart, as the rest of the state does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Journeys of many requests and webhooks: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
import type { GoLiveReport } from '../../../src/features/go-live/report.schemas.js';
import { startServer } from '../../../src/server.js';
import { directPayment, headers } from '../../support/app.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const reportOf = async (url: string): Promise<GoLiveReport> =>
  (await (await fetch(`${url}/_sandbox/report?account_id=acc_demo_direct`)).json()) as GoLiveReport;

describe('the go-live report keeps its findings', () => {
  it('past request-log retention, and across a restart with --db', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'go-live-db-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.sqlite');
    const first = await startServer({ port: 0, ticker: false, db, requestLogLimit: 5 });
    let stopped = false;
    cleanup.push(() => (stopped ? undefined : first.stop()));
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${first.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ external_identifier: `order-${i}`, notification_url: 'http://127.0.0.1:9/hooks' })),
      });
      expect(res.status).toBe(201);
    }
    await fetch(`${first.url}/v4/transactions`, { headers: headers(undefined, { 'x-sandbox-fault': '503' }) });
    const logged = (await (await fetch(`${first.url}/_sandbox/requests?account_id=acc_demo_direct&limit=100`)).json()) as {
      items: unknown[];
    };
    expect(logged.items).toHaveLength(5);
    const before = await reportOf(first.url);
    expect(before.findings.map((f) => [f.code, f.evidence.count])).toEqual([['missing_idempotency_key', 30]]);
    expect(before.findings[0]!.evidence.request_ids).toHaveLength(20);
    expect(before.coverage.find((c) => c.scenario === 'api_fault')?.seen).toBe(true);
    await first.stop();
    stopped = true;

    const second = await startServer({ port: 0, ticker: false, db });
    cleanup.push(() => second.stop());
    const after = await reportOf(second.url);
    expect({ ...after, generated_at: '' }).toEqual({ ...before, generated_at: '' });
    // A reset clears them, on disk too.
    expect((await fetch(`${second.url}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    expect((await reportOf(second.url)).findings).toEqual([]);
  });
});
