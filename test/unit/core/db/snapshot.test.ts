/**
 * Snapshot files (core/db/snapshot.ts): a copy of a --db file (WAL mode) comes out as a plain
 * rollback-journal SQLite file that opens anywhere, in memory too; `readSnapshot` refuses what
 * is not one (not SQLite, no sandbox tables, a newer schema) with one line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { openDatabase } from '../../../../src/core/db/database.js';
import { collectSchema } from '../../../../src/core/db/migrations.js';
import { MAX_SNAPSHOT_BYTES, SnapshotError, readSnapshot, takeSnapshot } from '../../../../src/core/db/snapshot.js';
import { openStore } from '../../../../src/sqlite-store.js';

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
    const checked = readSnapshot(file, SANDBOX_SCHEMA);
    const restored = openDatabase(':memory:', SANDBOX_SCHEMA, checked);
    expect(restored.pragma('user_version', { simple: true })).toBe(SANDBOX_SCHEMA.versions.length);
    expect((restored.prepare("SELECT value FROM meta WHERE key = 'clock_offset_ms'").get() as { value: string }).value).toBe('123000');
    restored.close();
  });

  it('the copy of an in-memory database taken while it is written to holds every committed write', async () => {
    const db = openDatabase(':memory:', SANDBOX_SCHEMA);
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
    expect(() => readSnapshot(notSqlite, SANDBOX_SCHEMA)).toThrow(SnapshotError);
    expect(() => readSnapshot(notSqlite, SANDBOX_SCHEMA)).toThrow(/a\.txt is not a payment-sandbox snapshot: not an SQLite database file/);
    const newer = join(dir, 'newer.sqlite');
    const db = openDatabase(newer, SANDBOX_SCHEMA);
    db.pragma(`user_version = ${SANDBOX_SCHEMA.versions.length + 1}`);
    db.pragma('journal_mode = DELETE');
    db.close();
    expect(() => readSnapshot(newer, SANDBOX_SCHEMA)).toThrow(
      new RegExp(`made by a newer payment-sandbox \\(schema version ${SANDBOX_SCHEMA.versions.length + 1}`),
    );
    for (const f of [notSqlite, newer]) {
      try {
        readSnapshot(f, SANDBOX_SCHEMA);
      } catch (err) {
        expect((err as Error).message).not.toContain('\n');
      }
    }
  });

  it('requires the tables the schema version 1 creates, whatever parts made it: meta first, then by name', () => {
    const schema = collectSchema([
      [{ version: 1, sql: 'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);' }],
      [{ version: 1, sql: 'CREATE TABLE widgets (id TEXT PRIMARY KEY); CREATE TABLE gadgets (id TEXT PRIMARY KEY);' }],
    ]);
    const partial = join(dir, 'partial.sqlite');
    const db = new Database(partial);
    db.exec('CREATE TABLE widgets (id TEXT PRIMARY KEY)');
    db.close();
    expect(() => readSnapshot(partial, schema)).toThrow(/partial\.sqlite is not a payment-sandbox snapshot: no meta, gadgets tables/);
    const none = join(dir, 'none.sqlite');
    const other = new Database(none);
    other.exec('CREATE TABLE t (x)');
    other.close();
    expect(() => readSnapshot(none, SANDBOX_SCHEMA)).toThrow(/no meta, accounts, /);
  });

  it('refuses a snapshot carrying a trigger, a view, an extra table or an extra index the sandbox did not create', async () => {
    const attacks: [string, string, RegExp][] = [
      [
        'trigger',
        'CREATE TRIGGER steal AFTER INSERT ON transactions BEGIN UPDATE api_keys SET account_id = account_id; END',
        /it holds a trigger steal that payment-sandbox did not create/,
      ],
      ['view', 'CREATE VIEW peek AS SELECT * FROM meta', /it holds a view peek that payment-sandbox did not create/],
      ['table', 'CREATE TABLE extra (x)', /it holds a table extra that payment-sandbox did not create/],
      ['index', 'CREATE INDEX meta_value ON meta (value)', /it holds an? index meta_value that payment-sandbox did not create/],
    ];
    for (const [name, sql] of attacks) {
      const db = openDatabase(':memory:', SANDBOX_SCHEMA);
      db.exec(sql);
      writeFileSync(join(dir, `${name}.sqlite`), await takeSnapshot(db));
      db.close();
    }
    for (const [name, , refusal] of attacks) {
      const file = join(dir, `${name}.sqlite`);
      expect(() => readSnapshot(file, SANDBOX_SCHEMA)).toThrow(SnapshotError);
      expect(() => readSnapshot(file, SANDBOX_SCHEMA)).toThrow(
        new RegExp(`${name}\\.sqlite is not a payment-sandbox snapshot: ${refusal.source}`),
      );
    }
    // the sandbox's own snapshot (the go-live table included) is still accepted
    const store = openStore(':memory:', () => {});
    writeFileSync(join(dir, 'own.sqlite'), await store.snapshot());
    store.close();
    expect(readSnapshot(join(dir, 'own.sqlite'), SANDBOX_SCHEMA).length).toBeGreaterThan(0);
  });

  it('a snapshot of a database with many deleted rows carries no free pages', async () => {
    const store = openStore(join(dir, 'freed.db'), () => {});
    const insert = store.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    store.db.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`big${i}`, 'x'.repeat(1000));
    })();
    store.db.exec("DELETE FROM meta WHERE key LIKE 'big%'");
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(store.db.pragma('freelist_count', { simple: true }) as number).toBeGreaterThan(500);
    const bytes = await store.snapshot();
    store.close();
    const copy = new Database(bytes);
    expect(copy.pragma('freelist_count', { simple: true })).toBe(0);
    expect((copy.prepare("SELECT count(*) AS n FROM meta WHERE key LIKE 'big%'").get() as { n: number }).n).toBe(0);
    copy.close();
    expect(bytes.length).toBeLessThan(1024 * 1024);
    expect(bytes[18]).toBe(1);
  });

  it('refuses a named pipe, a device and a file over the size bound at once, without reading them', () => {
    const fifo = join(dir, 'pipe.sqlite');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const started = performance.now();
    expect(() => readSnapshot(fifo, SANDBOX_SCHEMA)).toThrow(
      /pipe\.sqlite is not a payment-sandbox snapshot: a named pipe, not a regular file/,
    );
    expect(() => readSnapshot('/dev/zero', SANDBOX_SCHEMA)).toThrow(
      /\/dev\/zero is not a payment-sandbox snapshot: a device, not a regular file/,
    );
    const huge = join(dir, 'huge.sqlite');
    writeFileSync(huge, '');
    truncateSync(huge, MAX_SNAPSHOT_BYTES + 1); // sparse: no disk used
    expect(() => readSnapshot(huge, SANDBOX_SCHEMA)).toThrow(/huge\.sqlite is not a payment-sandbox snapshot: \d+ bytes, more than/);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
