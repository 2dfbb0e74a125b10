/**
 * Ports only the HTTP layer uses, kept with their consumer: the idempotency records and the
 * request log. `store/` implements them (it may import this file's types and nothing else of
 * `http/`); `compose.ts` hands them to `createApp`.
 */
import type { Page, PageRequest } from '../domain/ports.js';

export interface RequestLogEntry {
  seq: number;
  account_id: string | null;
  method: string;
  path: string;
  status: number;
  idempotency_key: string | null;
  replayed: boolean;
  duration_ms: number;
  request_body: string | null;
  response_body: string | null;
  /** e.g. unknown fields that were ignored. */
  warnings: string[];
  at: number;
  /** For a create (transaction, refund, subscription): whether its answer reached the client; null for any other request. */
  answer_delivered: boolean | null;
}

export interface IdempotencyRecord {
  account_id: string;
  key: string;
  fingerprint: string;
  state: 'processing' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

export interface IdempotencyRepo {
  get(accountId: string, key: string): IdempotencyRecord | undefined;
  /** Takes the key for a request now starting; replaces an expired record. */
  claim(accountId: string, key: string, fingerprint: string, at: number): void;
  complete(accountId: string, key: string, status: number, body: string): void;
  release(accountId: string, key: string): void;
  /** Stores a request that ran without yielding with its answer in one write (no claim was needed); replaces an expired record. */
  record(accountId: string, key: string, fingerprint: string, at: number, status: number, body: string): void;
  /** Deletes up to `max` keys created at or before `beforeMs` (expired); how many went. */
  deleteExpired(beforeMs: number, max: number): number;
  /** Whether any key is kept. */
  hasKeys(): boolean;
}

/** Which logged requests a search keeps: every condition given must hold. */
export interface RequestLogFilter {
  accountId?: string;
  /** Upper case, e.g. `POST`. */
  method?: string;
  /** The path without its query string, exactly (`/v4/transactions`). */
  path?: string;
  /** The path (without its query string) starts with this. */
  pathPrefix?: string;
  /** Status codes from `min` to `max`, both included (one code: min = max). */
  status?: { min: number; max: number };
}

export interface RequestLogRepo {
  /** Queues the entry (written with others a few milliseconds later); its id. */
  insert(entry: Omit<RequestLogEntry, 'seq'>): number;
  /**
   * Writes the entry now, in the caller's SQLite transaction (a create's unit of work: the
   * entry commits or rolls back with what the create wrote); its id. The log's trimming is
   * left to the next batch, off the request's path.
   */
  insertNow(entry: Omit<RequestLogEntry, 'seq'>): number;
  /**
   * Notes that the answer of the create logged as `seq` did not reach the client, learnt after
   * its entry was written (the connection closed before the answer was). Only an undelivered
   * answer costs a write.
   */
  markUndelivered(seq: number): void;
  page(accountId: string, req: PageRequest): Page<RequestLogEntry>;
  /** Every request, including those no account could be found for (e.g. a 401). */
  pageAll(req: PageRequest): Page<RequestLogEntry>;
  /** The requests `filter` keeps, newest first, in keyset pages like `pageAll`. */
  find(filter: RequestLogFilter, req: PageRequest): Page<RequestLogEntry>;
}

/** The HTTP layer's own records, as the composition root builds them over the sandbox's database. */
export interface HttpRecords {
  idempotency: IdempotencyRepo;
  requestLog: RequestLogRepo;
}
