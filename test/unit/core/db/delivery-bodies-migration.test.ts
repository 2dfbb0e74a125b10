/**
 * A delivery's body is stored once: a --db file written before (every attempt kept its own
 * copy of the body) still opens, keeps its deliveries and their attempts, and drops the copies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { openDatabase } from '../../../../src/core/db/database.js';
import { deliveriesStore } from '../../../../src/core/webhooks/deliveries-store.js';

const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-bodies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the migration that stores a delivery body once', () => {
  it('an older --db file opens with its deliveries and attempts, each attempt without its copy of the body', () => {
    const file = join(dir, 'older.db');
    const old = new Database(file);
    // The schema as it was before: every migration up to the one that drops the copies.
    const before = SANDBOX_SCHEMA.versions.findIndex((m) => m.includes('DROP COLUMN request_body'));
    expect(before).toBeGreaterThan(0);
    for (const migration of SANDBOX_SCHEMA.versions.slice(0, before)) old.exec(migration);
    old.pragma(`user_version = ${before}`);
    const body = JSON.stringify({ ll_transaction_id: 'tx-1', padding: 'x'.repeat(10_000) });
    old
      .prepare(
        `INSERT INTO deliveries (id, account_id, kind, resource_id, url, body, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES ('d1', 'acc', 'payment', 'tx-1', 'http://127.0.0.1:1/hook', ?, 'pending', 2, 5000, 1000, 1000)`,
      )
      .run(body);
    const attempt = old.prepare(
      `INSERT INTO delivery_attempts (delivery_id, number, at, url, request_headers, request_body, response_status, response_body, error, duration_ms, ok)
       VALUES ('d1', ?, ?, 'http://127.0.0.1:1/hook', '{"signature":"s"}', ?, 503, 'down', NULL, 3, 0)`,
    );
    attempt.run(1, 1000, body);
    attempt.run(2, 2000, body);
    old.close();

    const db = openDatabase(file, SANDBOX_SCHEMA);
    expect(db.pragma('user_version', { simple: true })).toBe(SANDBOX_SCHEMA.versions.length);
    const columns = (db.pragma('table_info(delivery_attempts)') as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('request_body');
    const deliveries = deliveriesStore(db);
    expect(deliveries.byId('d1')).toMatchObject({ id: 'd1', body, attempts: 2, status: 'pending' });
    const attempts = deliveries.attemptsOf('d1');
    expect(attempts.map((a) => [a.number, a.response_status, a.response_body, a.request_headers])).toEqual([
      [1, 503, 'down', { signature: 's' }],
      [2, 503, 'down', { signature: 's' }],
    ]);
    expect(attempts[0]).not.toHaveProperty('request_body');
    db.close();
  });
});
