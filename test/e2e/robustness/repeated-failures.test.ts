/**
 * A failure that repeats on every flush (a full disk) is logged once per run, with a count,
 * not once per flush with a full stack: the go-live report's save fails here on every write
 * (a trigger refuses it, deterministically), while requests keep changing the report.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log.js';
import { startServer } from '../../../src/server.js';
import { directPayment, headers } from '../../support/app.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

describe('a save that keeps failing', () => {
  it('saving the go-live report failing on every flush is logged once, not once per flush', async () => {
    const lines: string[] = [];
    const logger = createLogger({ format: 'json', out: () => undefined, err: (line) => lines.push(line) });
    const server = await startServer({ port: 0 }, { logger });
    cleanup.push(() => server.stop());
    server.db.exec(`
      CREATE TEMP TRIGGER full_insert BEFORE INSERT ON main.go_live_state BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;
      CREATE TEMP TRIGGER full_update BEFORE UPDATE ON main.go_live_state BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;
    `);
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ external_identifier: `flush-${i}` })),
      });
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 40)); // past the report's batching: one flush each
    }
    await new Promise((r) => setTimeout(r, 100));
    const failures = lines.filter((l) => l.includes('saving the go-live report failed'));
    expect(failures.length).toBe(1);
    expect(JSON.parse(failures[0]!)).toMatchObject({ level: 'error', event: 'report.failed' });
  });
});
