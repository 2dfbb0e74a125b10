/**
 * Keyset pagination over a table's `seq` column, newest first. No OFFSET:
 * a page is found by an index range from the cursor's key, so a page deep in 100,000 rows
 * costs the same as the first, and inserts never shift a page.
 */
import type { Statement } from 'better-sqlite3';
import type { Page, PageRequest } from '../domain/ports.js';
import type { Db } from './database.js';

/**
 * Reads a statement's rows as arrays and turns them into objects with a function compiled
 * for its column list: half the cost of better-sqlite3's own row objects on a 20-row page.
 * The column names come from the schema, never from a request.
 */
function rowMaker<Row>(raw: Statement): (a: unknown[]) => Row {
  const names = raw.columns().map((c) => c.name);
  return new Function('a', `return {${names.map((n, i) => `${JSON.stringify(n)}: a[${i}]`).join(', ')}};`) as (a: unknown[]) => Row;
}

function objectRows<Row>(stmt: Statement): (params: Record<string, unknown>) => Row[] {
  const raw = stmt.raw(true);
  const make = rowMaker<Row>(raw);
  return (params) => (raw.all(params) as unknown[][]).map(make);
}

/** `stmt.get(...)` as `objectRows` reads rows: the row as an array, made an object by a compiled function. */
export function objectRow<Row, Params extends unknown[]>(stmt: Statement<Params>): (...params: Params) => Row | undefined {
  const raw = stmt.raw(true);
  const make = rowMaker<Row>(raw);
  return (...params) => {
    const a = raw.get(...params) as unknown[] | undefined;
    return a === undefined ? undefined : make(a);
  };
}

/** A pager: a keyset page of `scope`'s rows (and any named parameter in `params`). */
export type Pager<Entity> = (scope: string, req: PageRequest, params?: Record<string, string | number>) => Page<Entity>;

/**
 * The keyset walk shared by both pagers: `prepare(sql)` prepares, once, a reader of the
 * statement `SELECT <what it reads> <sql>` (sql: `FROM table WHERE ... ORDER BY ... LIMIT`)
 * that returns the entities; `seqOf` gives each one's key.
 */
function pager<Entity>(
  db: Db,
  table: string,
  where: string,
  prepare: (sql: string) => (params: Record<string, unknown>) => Entity[],
  seqOf: (entity: Entity) => number,
): Pager<Entity> {
  const first = prepare(`FROM ${table} WHERE ${where} ORDER BY seq DESC LIMIT @limit`);
  const older = prepare(`FROM ${table} WHERE ${where} AND seq < @key ORDER BY seq DESC LIMIT @limit`);
  const newer = prepare(`FROM ${table} WHERE ${where} AND seq > @key ORDER BY seq ASC LIMIT @limit`);
  const hasOlder = db.prepare(`SELECT 1 FROM ${table} WHERE ${where} AND seq < @key LIMIT 1`).pluck();
  const hasNewer = db.prepare(`SELECT 1 FROM ${table} WHERE ${where} AND seq > @key LIMIT 1`).pluck();

  return (scope, req, params = {}) => {
    let rows: Entity[];
    if (req.key === undefined) rows = first({ ...params, scope, limit: req.limit });
    else if (req.direction === 'before') rows = newer({ ...params, scope, key: req.key, limit: req.limit }).reverse();
    else rows = older({ ...params, scope, key: req.key, limit: req.limit });
    if (rows.length === 0) {
      // An empty page (its rows were deleted) still links back to where it came from.
      if (req.key === undefined) return { rows: [], nextKey: null, previousKey: null };
      if (req.direction === 'before') {
        return { rows: [], nextKey: hasOlder.get({ ...params, scope, key: req.key + 1 }) ? req.key + 1 : null, previousKey: null };
      }
      return { rows: [], nextKey: null, previousKey: hasNewer.get({ ...params, scope, key: req.key - 1 }) ? req.key - 1 : null };
    }
    const top = seqOf(rows[0]!);
    const bottom = seqOf(rows[rows.length - 1]!);
    return {
      rows,
      nextKey: hasOlder.get({ ...params, scope, key: bottom }) ? bottom : null,
      previousKey: hasNewer.get({ ...params, scope, key: top }) ? top : null,
    };
  };
}

/**
 * Builds a pager for `table` filtered by `where` (which may use the `@scope` parameter, and
 * any named parameter the pager is given in `params`).
 * Rows must have a numeric `seq`; `toEntity` turns each into what the domain sees.
 */
export function keysetPage<Row extends { seq: number }, Entity = Row>(
  db: Db,
  table: string,
  where: string,
  toEntity: (row: Row) => Entity,
): Pager<Entity> {
  const page = pager<Row>(
    db,
    table,
    where,
    (sql) => objectRows<Row>(db.prepare(`SELECT * ${sql}`)),
    (row) => row.seq,
  );
  return (scope, req, params) => {
    const { rows, ...keys } = page(scope, req, params);
    return { rows: rows.map(toEntity), ...keys };
  };
}

/**
 * A pager for a repository with a read cache: a page reads only the ids of its rows (one
 * string each, the cheapest read better-sqlite3 has) and `byId` gives each entity, from the
 * cache or the table. Both run in one synchronous call, so no row can go in between.
 */
export function keysetIdPage<Entity extends { seq: number }>(
  db: Db,
  table: string,
  where: string,
  byId: (id: string) => Entity,
): Pager<Entity> {
  return pager<Entity>(
    db,
    table,
    where,
    (sql) => {
      const ids = db.prepare(`SELECT id ${sql}`).pluck();
      return (params) => (ids.all(params) as string[]).map(byId);
    },
    (entity) => entity.seq,
  );
}
