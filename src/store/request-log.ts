/** Queries of the API request log shown in the panel (`GET /_sandbox/requests`). */
import type { Db } from './database.js';
import { keysetPage, type Page, type PageRequest } from './keyset.js';

export interface RequestLogRow {
  seq: number;
  account_id: string | null;
  method: string;
  path: string;
  status: number;
  idempotency_key: string | null;
  replayed: number;
  duration_ms: number;
  request_body: string | null;
  response_body: string | null;
  /** JSON array of strings, e.g. unknown fields that were ignored. */
  warnings: string | null;
  at: number;
}

export interface RequestLogStore {
  insert(row: Omit<RequestLogRow, 'seq'>): number;
  page(accountId: string, req: PageRequest): Page<RequestLogRow>;
  /** Every request, including those no account could be found for (e.g. a 401). */
  pageAll(req: PageRequest): Page<RequestLogRow>;
}

export function requestLogStore(db: Db): RequestLogStore {
  const insert = db.prepare(`INSERT INTO request_log (account_id, method, path, status, idempotency_key, replayed,
      duration_ms, request_body, response_body, warnings, at)
    VALUES (@account_id, @method, @path, @status, @idempotency_key, @replayed, @duration_ms, @request_body,
      @response_body, @warnings, @at)`);
  const page = keysetPage<RequestLogRow>(db, 'request_log', 'account_id = @scope');
  const pageAll = keysetPage<RequestLogRow>(db, 'request_log', "@scope = ''");
  return {
    insert: (row) => Number(insert.run(row).lastInsertRowid),
    page,
    pageAll: (req) => pageAll('', req),
  };
}
