/**
 * A full disk, simulated deterministically with `PRAGMA max_page_count` on the
 * --db file (SQLite answers SQLITE_FULL as on a full disk), over a real socket: creates fail
 * with the 500 envelope, the request log can still be read, an advance answers, the
 * dispatcher backs off and logs its failure once instead of 431,000 times, each failed write
 * is one log line (never a stack trace), everything recovers when space returns, and closing
 * the sandbox on a full disk throws nothing. The dispatcher's back-off is asked for in real
 * time (250 ms doubling to 30 s); here each of its waits lasts a few milliseconds, so the test
 * does not sit them out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../support/until.js';
import { createLogger } from '../../../src/core/log.js';
import { realTime, type RealTime } from '../../../src/core/webhooks/crash-backoff.js';
import { startServer } from '../../../src/server.js';
import { directPayment, headers, startReceiver } from '../../support/app.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const json = { 'content-type': 'application/json' };

describe('a full disk', () => {
  it('500 envelopes for writes, reads still answer, deliveries back off with one log line, and all recovers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-full-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const lines: string[] = [];
    const logger = createLogger({ format: 'text', out: () => undefined, err: (line) => lines.push(line) });
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    // The back-off's waits as asked, and how many have ended; each lasts at most 5 ms.
    const backoffs: number[] = [];
    let resumed = 0;
    const quickBackoff: RealTime = {
      now: realTime.now,
      after(ms, fn) {
        backoffs.push(ms);
        return realTime.after(Math.min(ms, 5), () => {
          resumed += 1;
          fn();
        });
      },
    };
    const server = await startServer(
      { port: 0, ticker: true, db: join(dir, 'full.db'), notificationUrl: receiver.url },
      { logger, realTime: quickBackoff },
    );
    cleanup.push(() => server.stop());
    const create = (i: number): Promise<Response> =>
      fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ external_identifier: `full-${i}` })),
      });

    const before = await create(0);
    expect(before.status).toBe(201);
    // the disk is full: no page may be added
    const pages = server.db.pragma('page_count', { simple: true }) as number;
    server.db.pragma(`max_page_count = ${pages}`);
    let refused: Response | undefined;
    const settled: string[] = [];
    let failedWrites = 0;
    for (let i = 1; i < 3000 && !refused; i++) {
      const res = await create(i);
      if (res.status === 201) {
        const id = ((await res.json()) as { id: string }).id;
        const settle = await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
        if (settle.status === 200) settled.push(id);
        else {
          if (settle.status === 500) failedWrites += 1;
          await settle.arrayBuffer();
        }
      } else refused = res;
    }
    failedWrites += 1;
    expect(refused?.status).toBe(500);
    const envelope = (await refused!.json()) as { type: string; status: number; code: string };
    expect(envelope.type).toBe('error');
    expect(envelope.status).toBe(500);

    // reads still answer, the request log included (it answered 500)
    expect((await fetch(`${server.url}/_sandbox/requests`)).status).toBe(200);
    expect((await fetch(`${server.url}/v4/transactions`, { headers: headers() })).status).toBe(200);
    // an advance answers (it hung)
    const advanced = await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ seconds: 60 }),
    });
    expect([200, 500]).toContain(advanced.status);
    if (advanced.status === 500) failedWrites += 1;
    await advanced.arrayBuffer();

    // Failing deliveries and ticks: wait until the dispatcher has met the full disk and said so,
    // then let it back off and retry a few times (250 ms, 500 ms, 1 s asked) before counting. Every
    // bound below holds however slow the machine: the dispatcher's failure once, each failed
    // write one line, no stack trace anywhere.
    // Some writes still fit on a nearly full disk (an update in place): the dispatcher may say once
    // that it works again, and a failure after that is the same run, not a new first line.
    const crashLine = (l: string): boolean => l.includes('delivery failed unexpectedly') && !l.includes('working again');
    const recoveryLine = (l: string): boolean => l.includes('delivery failed unexpectedly') && l.includes('working again');
    await until('the dispatcher to log the full disk', () => (lines.some(crashLine) ? true : undefined), 30_000);
    const seen = resumed;
    await until('three back-offs to end', () => (resumed >= seen + 3 ? true : undefined), 30_000);
    // 250 ms, doubled at each further failure up to 30 s (from 250 ms again after a recovery)
    expect(backoffs[0]).toBe(250);
    expect(backoffs.filter((ms, i) => i > 0 && ms !== 250 && ms !== Math.min(30_000, 2 * backoffs[i - 1]!))).toEqual([]);
    expect(lines.filter(crashLine)).toHaveLength(1);
    expect(lines.filter(recoveryLine).length).toBeLessThanOrEqual(1);
    expect(lines.filter((l) => /^payment-sandbox: (POST|GET) \S+ failed: database or disk is full$/.test(l))).toHaveLength(failedWrites);
    expect(lines.filter((l) => /\n\s+at /.test(l))).toEqual([]);
    expect(lines.filter((l) => l.includes('unexpected error'))).toEqual([]);

    // space returns: writes succeed, and the webhooks go out
    server.db.pragma('max_page_count = 1073741823');
    let after = 0;
    const end = Date.now() + 20_000;
    while (after !== 201 && Date.now() < end) {
      after = (await create(1000)).status;
      if (after !== 201) await new Promise((r) => setTimeout(r, 100));
    }
    expect(after).toBe(201);
    const pendingSettled = (): number =>
      (
        server.db
          .prepare(
            `SELECT count(*) AS n FROM deliveries WHERE status = 'pending' AND resource_id IN (${settled.map(() => '?').join(',') || "''"})`,
          )
          .get(...settled) as { n: number }
      ).n;
    // the deliveries' back-off asks up to 30 s while the disk stays full; an attempt that failed at
    // the merchant meanwhile (a slow receiver on a loaded machine) waits for its retry on the
    // sandbox clock, so the clock is moved on once the back-off has had its time
    while (pendingSettled() > 0 && Date.now() < end + 10_000) await new Promise((r) => setTimeout(r, 100));
    if (pendingSettled() > 0) {
      const moved = await fetch(`${server.url}/_sandbox/clock/advance`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ seconds: 6 * 3600 }),
      });
      expect(moved.status).toBe(200);
      await moved.arrayBuffer();
    }
    const stuck = server.db
      .prepare(
        `SELECT id, status, attempts, next_attempt_at, fault, url FROM deliveries WHERE status = 'pending' AND resource_id IN (${settled.map(() => '?').join(',') || "''"})`,
      )
      .all(...settled);
    expect(stuck).toEqual([]);
  }, 120_000); // filling the disk takes a few thousand requests: slow on a loaded machine

  it("closing on a full disk throws nothing: the accounts' buyers are one warning, and made at the next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-full-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'full.db');
    const lines: string[] = [];
    const logger = createLogger({ format: 'text', out: () => undefined, err: (line) => lines.push(line) });
    const server = await startServer({ port: 0, ticker: false, db }, { logger });
    // The demo accounts' buyers are owed until first read; the disk fills before that.
    const pages = server.db.pragma('page_count', { simple: true }) as number;
    server.db.pragma(`max_page_count = ${pages}`);
    await expect(server.stop()).resolves.toBeUndefined();
    expect(lines).toEqual([expect.stringMatching(/^payment-sandbox: the accounts' buyers were not stored .*database or disk is full$/)]);

    const again = await startServer({ port: 0, ticker: false, db }, { logger });
    cleanup.push(() => again.stop());
    const buyers = await fetch(`${again.url}/buyers?limit=1`, { headers: headers() });
    expect(buyers.status).toBe(200);
    expect(((await buyers.json()) as { items: unknown[] }).items).toHaveLength(1);
  });
});
