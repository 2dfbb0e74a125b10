/** The API request log shown in the panel (`GET /_sandbox/requests`; `domain/ports.ts` → `RequestLogRepo`). */
import type { RequestLogEntry } from '../domain/entities.js';
import type { RequestLogRepo } from '../domain/ports.js';
import type { Db } from './database.js';
import { keysetPage } from './keyset.js';

/** A `request_log` row as SQLite holds it. */
interface RequestLogRow extends Omit<RequestLogEntry, 'replayed' | 'warnings'> {
  replayed: number;
  /** JSON array of strings. */
  warnings: string | null;
}

function toEntry(row: RequestLogRow): RequestLogEntry {
  return { ...row, replayed: row.replayed === 1, warnings: row.warnings === null ? [] : (JSON.parse(row.warnings) as string[]) };
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
  };
}
