/**
 * The API request log shown in the panel and searched by CI scripts (`GET /_sandbox/requests`;
 * `domain/ports.ts` → `RequestLogRepo`). A search by exact path uses the `bare_path` index
 * (migration 3); every search is a keyset page, like the unfiltered log.
 */
import type { RequestLogEntry } from '../domain/entities.js';
import type { Page, PageRequest, RequestLogFilter, RequestLogRepo } from '../domain/ports.js';
import type { Db } from './database.js';
import { keysetPage } from './keyset.js';

/** A `request_log` row as SQLite holds it. */
interface RequestLogRow extends Omit<RequestLogEntry, 'replayed' | 'warnings'> {
  replayed: number;
  /** JSON array of strings. */
  warnings: string | null;
  /** Generated: `path` without its query string. */
  bare_path?: string;
}

function toEntry({ bare_path: _bare, ...row }: RequestLogRow): RequestLogEntry {
  return { ...row, replayed: row.replayed === 1, warnings: row.warnings === null ? [] : (JSON.parse(row.warnings) as string[]) };
}

type Pager = (scope: string, req: PageRequest, params?: Record<string, string | number>) => Page<RequestLogEntry>;

/** The WHERE clause and parameters of a search (the clause names only columns and parameters). */
function searchOf(filter: RequestLogFilter): { where: string; params: Record<string, string | number> } {
  const clauses: string[] = [];
  const params: Record<string, string | number> = {};
  if (filter.accountId !== undefined) {
    clauses.push('account_id = @account_id');
    params.account_id = filter.accountId;
  }
  if (filter.method !== undefined) {
    clauses.push('method = @method');
    params.method = filter.method;
  }
  if (filter.path !== undefined) {
    clauses.push('bare_path = @path');
    params.path = filter.path;
  }
  if (filter.pathPrefix !== undefined) {
    clauses.push('substr(bare_path, 1, length(@path_prefix)) = @path_prefix');
    params.path_prefix = filter.pathPrefix;
  }
  if (filter.status !== undefined) {
    if (filter.status.min === filter.status.max) clauses.push('status = @status_min');
    else clauses.push('status BETWEEN @status_min AND @status_max');
    params.status_min = filter.status.min;
    params.status_max = filter.status.max;
  }
  return { where: clauses.length > 0 ? clauses.join(' AND ') : "@scope = ''", params };
}

/** The request log; with `limit`, only the newest `limit` entries are kept. */
export function requestLogStore(db: Db, limit?: number): RequestLogRepo {
  const prune = db.prepare('DELETE FROM request_log WHERE seq <= ?');
  const insert = db.prepare(`INSERT INTO request_log (account_id, method, path, status, idempotency_key, replayed,
      duration_ms, request_body, response_body, warnings, at)
    VALUES (@account_id, @method, @path, @status, @idempotency_key, @replayed, @duration_ms, @request_body,
      @response_body, @warnings, @at)`);
  const page = keysetPage<RequestLogRow, RequestLogEntry>(db, 'request_log', 'account_id = @scope', toEntry);
  const pageAll = keysetPage<RequestLogRow, RequestLogEntry>(db, 'request_log', "@scope = ''", toEntry);
  // One pager per combination of conditions (at most 32), prepared when first used.
  const searches = new Map<string, Pager>();
  return {
    insert: (entry) => {
      const seq = Number(
        insert.run({ ...entry, replayed: entry.replayed ? 1 : 0, warnings: entry.warnings.length > 0 ? JSON.stringify(entry.warnings) : null })
          .lastInsertRowid,
      );
      if (limit !== undefined && seq > limit) prune.run(seq - limit);
      return seq;
    },
    page,
    pageAll: (req) => pageAll('', req),
    find(filter, req) {
      const { where, params } = searchOf(filter);
      let pager = searches.get(where);
      if (!pager) {
        pager = keysetPage<RequestLogRow, RequestLogEntry>(db, 'request_log', where, toEntry);
        searches.set(where, pager);
      }
      return pager('', req, params);
    },
  };
}
