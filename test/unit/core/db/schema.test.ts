/**
 * The schema gathered from the core's and each feature's migration parts: a fresh database is
 * exactly the schema version 11 made when every table was one list in the core
 * (`schema-v11.json`, its `sqlite_master`), and a database left at any earlier version opens
 * and migrates to that same schema.
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { openDatabase, type Db } from '../../../../src/core/db/database.js';
import { collectSchema } from '../../../../src/core/db/migrations.js';

/** `sqlite_master` of a fresh database at version 11, as the core's one list of migrations made it. */
const expected = JSON.parse(readFileSync(new URL('./schema-v11.json', import.meta.url), 'utf8')) as {
  user_version: number;
  objects: string[][];
};

/** Every schema object of `db` as `sqlite_master` lists it, in a fixed order. */
const schemaOf = (db: Db): string[][] =>
  db
    .prepare<[], { type: string; name: string; tbl_name: string; sql: string }>(
      'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name',
    )
    .all()
    .map((o) => [o.type, o.name, o.tbl_name, o.sql]);

describe('the schema gathered from the features', () => {
  it('a fresh database has exactly the tables, indexes and columns of schema version 11', () => {
    const db = openDatabase(':memory:', SANDBOX_SCHEMA);
    expect(db.pragma('user_version', { simple: true })).toBe(expected.user_version);
    expect(SANDBOX_SCHEMA.versions).toHaveLength(expected.user_version);
    expect(schemaOf(db)).toEqual(expected.objects);
    db.close();
  });

  it('a database left at any earlier version opens, migrates once and ends with the same schema', () => {
    for (let version = 1; version < SANDBOX_SCHEMA.versions.length; version++) {
      const old = new Database(':memory:');
      for (const migration of SANDBOX_SCHEMA.versions.slice(0, version)) old.exec(migration);
      old.pragma(`user_version = ${version}`);
      const bytes = old.serialize();
      old.close();

      const db = openDatabase(':memory:', SANDBOX_SCHEMA, bytes);
      expect(db.pragma('user_version', { simple: true }), `from version ${version}`).toBe(expected.user_version);
      expect(schemaOf(db), `from version ${version}`).toEqual(expected.objects);
      db.close();
    }
  });

  it('joins the parts of one version in the order of their owners, and refuses a gap between versions', () => {
    const core = [
      { version: 1, sql: 'CREATE TABLE a (x);' },
      { version: 2, sql: 'CREATE TABLE c (x);' },
    ];
    const feature = [{ version: 1, sql: 'CREATE TABLE b (x);' }];
    expect(collectSchema([core, feature]).versions).toEqual(['CREATE TABLE a (x);\nCREATE TABLE b (x);', 'CREATE TABLE c (x);']);
    expect(() => collectSchema([core, [{ version: 4, sql: 'CREATE TABLE d (x);' }]])).toThrow('schema version 3 has no part');
  });
});
