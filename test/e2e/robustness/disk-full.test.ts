/**
 * A full disk, simulated deterministically with `PRAGMA max_page_count` on the
 * --db file (SQLite answers SQLITE_FULL as on a full disk), over a real socket: creates fail
 * with the 500 envelope, the request log can still be read, an advance answers, the
 * dispatcher backs off and logs its failure once instead of 431,000 times, and everything
 * recovers when space returns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.js';
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
    const logger = createLogger({ format: 'json', out: () => undefined, err: (line) => lines.push(line) });
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const server = await startServer({ port: 0, ticker: true, db: join(dir, 'full.db'), notificationUrl: receiver.url }, { logger });
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
    for (let i = 1; i < 3000 && !refused; i++) {
      const res = await create(i);
      if (res.status === 201) {
        const id = ((await res.json()) as { id: string }).id;
        const settle = await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
        if (settle.status === 200) settled.push(id);
        else await settle.arrayBuffer();
      } else refused = res;
    }
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
    await advanced.arrayBuffer();

    // a second of failing deliveries and ticks: a handful of lines, not a flood
    await new Promise((r) => setTimeout(r, 1500));
    const crashLines = lines.filter((l) => l.includes('delivery failed unexpectedly')).length;
    expect(crashLines).toBeLessThanOrEqual(2);
    expect(lines.length).toBeLessThan(20);

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
    // the deliveries' back-off reaches 30 s while the disk stays full; an attempt that failed at
    // the merchant meanwhile (a slow receiver on a loaded machine) waits for its retry on the
    // sandbox clock, so the clock is moved on once the back-off has had its time
    while (pendingSettled() > 0 && Date.now() < end + 40_000) await new Promise((r) => setTimeout(r, 100));
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
});
