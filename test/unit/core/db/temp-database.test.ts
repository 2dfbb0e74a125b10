/**
 * Without `--db`, the sandbox's data lives in SQLite's private temporary database, not in a
 * true in-memory one: at most TEMP_CACHE_KIB of pages stay in the process's memory, the rest
 * goes to an anonymous file that disappears with the process. So a long run of creates does
 * not grow the process's RSS with every row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { openDatabase, TEMP_CACHE_KIB, type Db } from '../../../../src/core/db/database.js';

let db: Db | undefined;
afterEach(() => db?.close());

describe('the database without --db', () => {
  it("is SQLite's temporary database with a bounded page cache and its journal in memory", () => {
    db = openDatabase(':memory:', SANDBOX_SCHEMA);
    expect(db.name).toBe('');
    expect(db.pragma('cache_size', { simple: true })).toBe(-TEMP_CACHE_KIB);
    expect(String(db.pragma('journal_mode', { simple: true })).toLowerCase()).toBe('memory');
  });

  it("keeps a 1 MiB page cache: a commit's cost grows with the dirty pages its cache holds", () => {
    db = openDatabase(':memory:', SANDBOX_SCHEMA);
    expect(db.pragma('cache_size', { simple: true })).toBe(-1024);
  });

  it('keeps every row when the data outgrows the page cache, and starts empty each time', () => {
    db = openDatabase(':memory:', SANDBOX_SCHEMA);
    db.pragma('cache_size = -256'); // 256 KiB: a few MB of rows spill to the file
    const insert = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    const filler = 'x'.repeat(1000);
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) insert.run(`k${i}`, `${i}:${filler}`);
    })();
    const get = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
    for (const i of [0, 1234, 4999]) expect(get.get(`k${i}`)?.value).toBe(`${i}:${filler}`);
    expect(db.prepare('SELECT count(*) AS n FROM meta').get()).toEqual({ n: 5000 });
    db.close();
    db = openDatabase(':memory:', SANDBOX_SCHEMA);
    expect(db.prepare('SELECT count(*) AS n FROM meta').get()).toEqual({ n: 0 });
  });
});
