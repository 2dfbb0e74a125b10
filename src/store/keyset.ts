/**
 * Keyset pagination over a table's `seq` column, newest first (contract: Lists). No OFFSET:
 * a page is found by an index range from the cursor's key, so a page deep in 100,000 rows
 * costs the same as the first, and inserts never shift a page.
 */
import type { Db } from './database.js';

/** Which way a page runs from its key: `after` = older than key (next), `before` = newer (previous). */
export interface PageRequest {
  limit: number;
  direction?: 'after' | 'before';
  key?: number;
}

export interface Page<Row> {
  rows: Row[];
  /** seq of the last row when older rows exist. */
  nextKey: number | null;
  /** seq of the first row when newer rows exist. */
  previousKey: number | null;
}

/**
 * Builds a pager for `table` filtered by `where` (which may use the `@scope` parameter).
 * Rows must have a numeric `seq`.
 */
export function keysetPage<Row extends { seq: number }>(
  db: Db,
  table: string,
  where: string,
): (scope: string, req: PageRequest) => Page<Row> {
  const first = db.prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY seq DESC LIMIT @limit`);
  const older = db.prepare(`SELECT * FROM ${table} WHERE ${where} AND seq < @key ORDER BY seq DESC LIMIT @limit`);
  const newer = db.prepare(`SELECT * FROM ${table} WHERE ${where} AND seq > @key ORDER BY seq ASC LIMIT @limit`);
  const hasOlder = db.prepare(`SELECT 1 FROM ${table} WHERE ${where} AND seq < @key LIMIT 1`).pluck();
  const hasNewer = db.prepare(`SELECT 1 FROM ${table} WHERE ${where} AND seq > @key LIMIT 1`).pluck();

  return (scope, req) => {
    let rows: Row[];
    if (req.key === undefined) rows = first.all({ scope, limit: req.limit }) as Row[];
    else if (req.direction === 'before') rows = (newer.all({ scope, key: req.key, limit: req.limit }) as Row[]).reverse();
    else rows = older.all({ scope, key: req.key, limit: req.limit }) as Row[];
    if (rows.length === 0) {
      // An empty page (its rows were deleted) still links back to where it came from.
      if (req.key === undefined) return { rows, nextKey: null, previousKey: null };
      if (req.direction === 'before') {
        return { rows, nextKey: hasOlder.get({ scope, key: req.key + 1 }) ? req.key + 1 : null, previousKey: null };
      }
      return { rows, nextKey: null, previousKey: hasNewer.get({ scope, key: req.key - 1 }) ? req.key - 1 : null };
    }
    const top = rows[0]!.seq;
    const bottom = rows[rows.length - 1]!.seq;
    return {
      rows,
      nextKey: hasOlder.get({ scope, key: bottom }) ? bottom : null,
      previousKey: hasNewer.get({ scope, key: top }) ? top : null,
    };
  };
}
