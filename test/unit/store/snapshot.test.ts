/**
 * Snapshot files (store/snapshot.ts): a copy of a --db file (WAL mode) comes out as a plain
 * rollback-journal SQLite file that opens anywhere, in memory too; `readSnapshot` refuses what
 * is not one (not SQLite, no sandbox tables, a newer schema) with one line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, openDatabase } from '../../../src/core/db/database.js';
import { SnapshotError, readSnapshot, takeSnapshot } from '../../../src/core/db/snapshot.js';
import { openStore } from '../../../src/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-snapshot-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('snapshot files', () => {
  it('a copy of a --db file (WAL mode) is a plain SQLite file, readable in memory, with the data and the schema version', async () => {
    const store = openStore(join(dir, 'live.db'), () => {});
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.saveClockOffset(123_000);
    const bytes = await store.snapshot();
    store.close();
    expect(bytes[18]).toBe(1);
    expect(bytes[19]).toBe(1);
    const file = join(dir, 'copy.sqlite');
    writeFileSync(file, bytes);
    const checked = readSnapshot(file);
    const restored = openDatabase(':memory:', checked);
    expect(restored.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect((restored.prepare("SELECT value FROM meta WHERE key = 'clock_offset_ms'").get() as { value: string }).value).toBe('123000');
    restored.close();
  });

  it('the copy of an in-memory database taken while it is written to holds every committed write', async () => {
    const db = openDatabase(':memory:');
    const insert = db.prepare("INSERT INTO meta (key, value) VALUES (?, 'x')");
    for (let i = 0; i < 2000; i++) insert.run(`k${i}`);
    const copying = takeSnapshot(db);
    for (let i = 2000; i < 2100; i++) insert.run(`k${i}`); // while the backup steps run
    const copy = new Database(await copying);
    expect((copy.prepare("SELECT count(*) AS n FROM meta WHERE key LIKE 'k%'").get() as { n: number }).n).toBe(2100);
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    db.close();
  });

  it('refuses, with one line, a file that is not a snapshot or comes from a newer version', () => {
    const notSqlite = join(dir, 'a.txt');
    writeFileSync(notSqlite, 'x'.repeat(200));
    expect(() => readSnapshot(notSqlite)).toThrow(SnapshotError);
    expect(() => readSnapshot(notSqlite)).toThrow(/a\.txt is not a payment-sandbox snapshot: not an SQLite database file/);
    const newer = join(dir, 'newer.sqlite');
    const db = openDatabase(newer);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.pragma('journal_mode = DELETE');
    db.close();
    expect(() => readSnapshot(newer)).toThrow(new RegExp(`made by a newer payment-sandbox \\(schema version ${SCHEMA_VERSION + 1}`));
    for (const f of [notSqlite, newer]) {
      try {
        readSnapshot(f);
      } catch (err) {
        expect((err as Error).message).not.toContain('\n');
      }
    }
  });
});
