/** Queries of the webhook outbox (`deliveries`) and its attempt log (`delivery_attempts`). */
import type { Db } from './database.js';
import { keysetPage, type Page, type PageRequest } from './keyset.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  seq: number;
  id: string;
  account_id: string;
  kind: 'payment' | 'refund';
  resource_id: string;
  url: string | null;
  /** The exact raw body sent on every attempt. */
  body: string;
  /** The body's signature, made once at the first attempt (it depends on the body alone). */
  signature: string | null;
  status: DeliveryStatus;
  attempts: number;
  simulated_failures: number;
  simulated_failure_status: number;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface AttemptRow {
  seq: number;
  delivery_id: string;
  number: number;
  at: number;
  url: string | null;
  request_headers: string;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  ok: number;
}

export interface DeliveriesStore {
  insert(row: Omit<DeliveryRow, 'seq'>): void;
  byId(id: string): DeliveryRow | undefined;
  /** Pending deliveries due at or before `nowMs`, oldest first. */
  due(nowMs: number): DeliveryRow[];
  nextDue(): number | null;
  page(accountId: string, req: PageRequest): Page<DeliveryRow>;
  pageAll(req: PageRequest): Page<DeliveryRow>;
  forResource(resourceId: string): DeliveryRow[];
  recordAttempt(attempt: Omit<AttemptRow, 'seq'>, update: Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'delivered_at' | 'updated_at'>): void;
  requeue(id: string, nowMs: number): void;
  /** Moves a pending delivery's next attempt to `atMs` (it waits for an earlier one of its transaction). */
  postpone(id: string, atMs: number): void;
  setSignature(id: string, signature: string): void;
  attemptsOf(deliveryId: string): AttemptRow[];
}

export function deliveriesStore(db: Db): DeliveriesStore {
  const insert = db.prepare(`INSERT INTO deliveries (id, account_id, kind, resource_id, url, body, status, attempts,
      simulated_failures, simulated_failure_status, next_attempt_at, created_at, updated_at, delivered_at)
    VALUES (@id, @account_id, @kind, @resource_id, @url, @body, @status, @attempts, @simulated_failures,
      @simulated_failure_status, @next_attempt_at, @created_at, @updated_at, @delivered_at)`);
  const byId = db.prepare('SELECT * FROM deliveries WHERE id = ?');
  const due = db.prepare("SELECT * FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq");
  const nextDue = db.prepare("SELECT min(next_attempt_at) FROM deliveries WHERE status = 'pending'").pluck();
  const forResource = db.prepare('SELECT * FROM deliveries WHERE resource_id = ? ORDER BY seq');
  const insertAttempt = db.prepare(`INSERT INTO delivery_attempts (delivery_id, number, at, url, request_headers, request_body,
      response_status, response_body, error, duration_ms, ok)
    VALUES (@delivery_id, @number, @at, @url, @request_headers, @request_body, @response_status, @response_body, @error, @duration_ms, @ok)`);
  const update = db.prepare(`UPDATE deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at,
      delivered_at = @delivered_at, updated_at = @updated_at WHERE id = @id`);
  const requeue = db.prepare("UPDATE deliveries SET status = 'pending', next_attempt_at = ?, updated_at = ? WHERE id = ?");
  const postpone = db.prepare("UPDATE deliveries SET next_attempt_at = ? WHERE id = ? AND status = 'pending'");
  const setSignature = db.prepare('UPDATE deliveries SET signature = ? WHERE id = ?');
  const attemptsOf = db.prepare('SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY seq');
  const page = keysetPage<DeliveryRow>(db, 'deliveries', 'account_id = @scope');
  const pageAll = keysetPage<DeliveryRow>(db, 'deliveries', "@scope = ''");
  const record = db.transaction(
    (attempt: Omit<AttemptRow, 'seq'>, u: Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'delivered_at' | 'updated_at'>) => {
      insertAttempt.run(attempt);
      update.run({ ...u, id: attempt.delivery_id });
    },
  );
  return {
    insert: (row) => void insert.run(row),
    byId: (id) => byId.get(id) as DeliveryRow | undefined,
    due: (nowMs) => due.all(nowMs) as DeliveryRow[],
    nextDue: () => (nextDue.get() as number | null) ?? null,
    page,
    pageAll: (req) => pageAll('', req),
    forResource: (resourceId) => forResource.all(resourceId) as DeliveryRow[],
    recordAttempt: (attempt, u) => record(attempt, u),
    requeue: (id, nowMs) => void requeue.run(nowMs, nowMs, id),
    postpone: (id, atMs) => void postpone.run(atMs, id),
    setSignature: (id, signature) => void setSignature.run(signature, id),
    attemptsOf: (deliveryId) => attemptsOf.all(deliveryId) as AttemptRow[],
  };
}
