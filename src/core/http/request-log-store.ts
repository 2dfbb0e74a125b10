/**
 * The API request log shown in the panel and searched by CI scripts (`GET /_sandbox/requests`;
 * `http/ports.ts` → `RequestLogRepo`, a port of the HTTP layer). A search by exact path uses the `bare_path` index
 * (migration 3); every search is a keyset page, like the unfiltered log.
 *
 * Written in batches, off the request's path: `insert` gives the entry its id (`seq`, counted
 * in memory from the table's last one) and queues it; the queue is written in one SQLite
 * transaction (and pruned once) a few milliseconds later, when it holds `FLUSH_AT` entries, and
 * before any read, reset or close, so every reader sees every entry. A crash (not a clean stop)
 * can lose the last few milliseconds of the log: it is diagnostics, not accepted data. A keyed
 * create's entry is not queued: `insertNow` writes it in the create's own transaction, beside
 * the record and its idempotency key; the pruning it makes due waits for the next batch.
 */
import type { RequestLogEntry, RequestLogFilter, RequestLogRepo } from './ports.js';
import type { Db } from '../db/database.js';
import { keysetPage, type Pager } from '../db/keyset.js';

/** A `request_log` row as SQLite holds it. */
interface RequestLogRow extends Omit<RequestLogEntry, 'replayed' | 'warnings' | 'answer_delivered'> {
  replayed: number;
  /** 1, 0, or null for a request that is not a create. */
  answer_delivered: number | null;
  /** JSON array of strings. */
  warnings: string | null;
  /** Generated: `path` without its query string. */
  bare_path?: string;
}

function toEntry({ bare_path: _bare, ...row }: RequestLogRow): RequestLogEntry {
  return {
    ...row,
    replayed: row.replayed === 1,
    warnings: row.warnings === null ? [] : (JSON.parse(row.warnings) as string[]),
    answer_delivered: row.answer_delivered === null ? null : row.answer_delivered === 1,
  };
}

/** A queued entry as the insert's parameters: seq, account_id, method, path, status, idempotency_key, replayed, duration_ms, request_body, response_body, warnings, at, answer_delivered. */
type QueuedRow = [
  number,
  string | null,
  string,
  string,
  number,
  string | null,
  number,
  number,
  string | null,
  string | null,
  string | null,
  number,
  number | null,
];

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

/** Queued entries are written this long after the first of them at the latest (ms)... */
export const FLUSH_AFTER_MS = 10;
/** ...or at once when this many are queued. */
export const FLUSH_AT = 256;

/** The request log's repository, and the write of its queue that the store's reset and close call first. */
export interface BatchedRequestLog extends RequestLogRepo {
  /** Writes every queued entry now (one transaction, or a savepoint of the caller's). */
  flush(): void;
}

/**
 * The request log; with `limit`, only the newest `limit` entries are kept. `onError` hears
 * about a timed write that failed (its entries are dropped: the log is diagnostics).
 */
export function requestLogStore(db: Db, limit?: number, onError: (err: unknown) => void = () => {}): BatchedRequestLog {
  const prune = db.prepare('DELETE FROM request_log WHERE seq <= ?');
  // Positional parameters, in `QueuedRow`'s order: a third cheaper than named ones per row.
  const insert = db.prepare<QueuedRow>(`INSERT INTO request_log (seq, account_id, method, path, status, idempotency_key, replayed,
      duration_ms, request_body, response_body, warnings, at, answer_delivered)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const undelivered = db.prepare('UPDATE request_log SET answer_delivered = 0 WHERE seq = ? AND answer_delivered IS NOT NULL');
  const page = keysetPage<RequestLogRow, RequestLogEntry>(db, 'request_log', 'account_id = @scope', toEntry);
  const pageAll = keysetPage<RequestLogRow, RequestLogEntry>(db, 'request_log', "@scope = ''", toEntry);
  // One pager per combination of conditions (at most 32), prepared when first used.
  const searches = new Map<string, Pager<RequestLogEntry>>();

  // The last id given: AUTOINCREMENT's own counter (never reused, even after a reset emptied the table).
  const last = db
    .prepare<[], { last: number }>(
      "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'request_log'), 0), coalesce((SELECT max(seq) FROM request_log), 0)) AS last",
    )
    .get();
  let lastSeq = last?.last ?? 0;
  let queue: QueuedRow[] = [];
  let timer: NodeJS.Timeout | undefined;

  /** The newest id written by `insertNow` since the last prune, or 0. */
  let writtenNow = 0;
  const writeQueue = db.transaction((rows: QueuedRow[]) => {
    for (const row of rows) insert.run(...row);
    const newest = Math.max(rows.length > 0 ? rows[rows.length - 1]![0] : 0, writtenNow);
    writtenNow = 0;
    if (limit !== undefined && newest > limit) prune.run(newest - limit);
  });
  const flush = (): void => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (queue.length === 0 && writtenNow === 0) return;
    const rows = queue;
    queue = [];
    writeQueue(rows);
  };
  const flushSoon = (): void => {
    if (timer) return;
    timer = setTimeout(flushLater, FLUSH_AFTER_MS);
    timer.unref();
  };
  const flushLater = (): void => {
    timer = undefined;
    try {
      if (db.open) flush();
      else queue = [];
    } catch (err) {
      onError(err);
    }
  };
  // A write that fails (a full disk) drops its entries, as a timed one does: the log is
  // diagnostics; the request that queued the entry, and a read of the log, still answer (a
  // search answered 500 on a full disk).
  const flushOrDrop = (): void => {
    try {
      flush();
    } catch (err) {
      onError(err);
    }
  };
  const read = <T>(fn: () => T): T => {
    flushOrDrop();
    return fn();
  };

  const rowOf = (seq: number, entry: Omit<RequestLogEntry, 'seq'>): QueuedRow => [
    seq,
    entry.account_id,
    entry.method,
    entry.path,
    entry.status,
    entry.idempotency_key,
    entry.replayed ? 1 : 0,
    entry.duration_ms,
    entry.request_body,
    entry.response_body,
    entry.warnings.length > 0 ? JSON.stringify(entry.warnings) : null,
    entry.at,
    entry.answer_delivered === null ? null : entry.answer_delivered ? 1 : 0,
  ];

  return {
    insertNow: (entry) => {
      const seq = ++lastSeq;
      insert.run(...rowOf(seq, entry));
      if (limit !== undefined) {
        writtenNow = seq;
        flushSoon(); // the trimming, off the request path
      }
      return seq;
    },
    insert: (entry) => {
      const seq = ++lastSeq;
      queue.push(rowOf(seq, entry));
      if (queue.length >= FLUSH_AT) flushOrDrop();
      else flushSoon();
      return seq;
    },
    markUndelivered: (seq) => {
      // Still queued (most entries, a few milliseconds after their answer): changed in place.
      for (let i = queue.length - 1; i >= 0; i--) {
        const row = queue[i]!;
        if (row[0] === seq) {
          if (row[12] !== null) row[12] = 0;
          return;
        }
        if (row[0] < seq) break;
      }
      try {
        if (db.open) undelivered.run(seq);
      } catch (err) {
        onError(err);
      }
    },
    page: (accountId, req) => read(() => page(accountId, req)),
    pageAll: (req) => read(() => pageAll('', req)),
    find(filter, req) {
      const { where, params } = searchOf(filter);
      let pager = searches.get(where);
      if (!pager) {
        pager = keysetPage<RequestLogRow, RequestLogEntry>(db, 'request_log', where, toEntry);
        searches.set(where, pager);
      }
      return read(() => pager('', req, params));
    },
    flush,
  };
}
