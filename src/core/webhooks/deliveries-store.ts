/**
 * The webhook outbox (`deliveries`) and its attempt log (`delivery_attempts`)
 * (`domain/ports.ts` → `DeliveriesRepo`). An attempt's request headers are JSON text.
 */
import type { Delivery, DeliveryAttempt } from '../domain/entities.js';
import type { DeliveriesRepo, DeliveryProgress, DueDelivery } from '../domain/ports.js';
import type { Db } from '../db/database.js';
import { keysetPage } from '../db/keyset.js';
import { accountTimedQuery } from '../db/account-time.js';
import { createAccountClocks, type AccountClocks } from '../clock/account-clocks.js';

/** A `delivery_attempts` row as SQLite holds it. */
interface AttemptRow extends Omit<DeliveryAttempt, 'request_headers' | 'ok'> {
  request_headers: string;
  ok: number;
}

const toAttempt = (row: AttemptRow): DeliveryAttempt => ({
  ...row,
  request_headers: JSON.parse(row.request_headers) as Record<string, string>,
  ok: row.ok === 1,
});

/** A row read with its instant on the clock of the query (`due_on_clock`), without that column. */
function withoutDueOnClock<T extends { due_on_clock?: number }>(row: T): Omit<T, 'due_on_clock'> {
  const { due_on_clock: _due, ...rest } = row;
  return rest;
}

/** Pending deliveries with `next_attempt_at` on the clock they were asked on (the sandbox clock outside an account). */
function* onClock(
  rows: Iterable<Pick<Delivery, 'id' | 'next_attempt_at'> & { due_on_clock: number }>,
): IterableIterator<Pick<Delivery, 'id' | 'next_attempt_at'>> {
  for (const row of rows) yield { id: row.id, next_attempt_at: row.due_on_clock };
}

/**
 * How many finished deliveries go by between two prunes of the delivery log: a tenth of the
 * limit (at least 1). Each prune keeps `limit - batch + 1` of them, so that however many finish
 * before the next prune, never more than `limit` are kept (`--delivery-log-limit 50` kept 70).
 */
const pruneEvery = (limit: number): number => Math.max(1, Math.ceil(limit / 10));

/**
 * The delivery log; with `limit`, only the newest `limit` finished deliveries (and their
 * attempts) are kept. A delivery's `next_attempt_at` is on its account's clock (`clocks`).
 */
export function deliveriesStore(db: Db, limit?: number, clocks: AccountClocks = createAccountClocks()): DeliveriesRepo {
  const pruneAttempts = db.prepare(`DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries
    WHERE status != 'pending' ORDER BY seq DESC LIMIT -1 OFFSET ?)`);
  const pruneDeliveries = db.prepare(`DELETE FROM deliveries WHERE seq IN (SELECT seq FROM deliveries
    WHERE status != 'pending' ORDER BY seq DESC LIMIT -1 OFFSET ?)`);
  const prune = db.transaction((keep: number) => {
    pruneAttempts.run(keep);
    pruneDeliveries.run(keep);
  });
  let finishedSincePrune = 0;
  if (limit !== undefined) prune(limit); // a file kept with a larger limit
  const insert = db.prepare(`INSERT INTO deliveries (id, account_id, kind, resource_id, url, body, status, attempts,
      simulated_failures, simulated_failure_status, fault, order_key, canary, next_attempt_at, created_at, updated_at, delivered_at)
    VALUES (@id, @account_id, @kind, @resource_id, @url, @body, @status, @attempts, @simulated_failures,
      @simulated_failure_status, @fault, @order_key, @canary, @next_attempt_at, @created_at, @updated_at, @delivered_at)`);
  const byId = db.prepare<[string], Delivery>('SELECT * FROM deliveries WHERE id = ?');
  // A pass reads every due delivery but its body and signature: a large backlog (a year's renewals) is not copied whole.
  const dueColumns = `seq, id, account_id, kind, resource_id, url, status, attempts, simulated_failures,
    simulated_failure_status, fault, order_key, canary, next_attempt_at, created_at, updated_at, delivered_at`;
  const due = accountTimedQuery(
    db,
    clocks,
    (q) =>
      `SELECT ${dueColumns} FROM deliveries WHERE status = 'pending' AND ${q.scope} AND ${q.due('next_attempt_at')} <= ?
        ORDER BY ${q.due('next_attempt_at')}, seq`,
  );
  // A queue's followers wait behind its head: of a year of renewals queued at once, one is read.
  const dueHeadIds = accountTimedQuery(
    db,
    clocks,
    (q) =>
      `SELECT id FROM (
        SELECT id, ${q.due('next_attempt_at')} AS due_on_clock, seq FROM deliveries WHERE status = 'pending' AND ${q.scope}
          AND (order_key IS NULL OR fault IS 'bad_signature') AND due_on_clock <= ?
        UNION ALL
        SELECT d.id, ${q.due('d.next_attempt_at')} AS due_on_clock, d.seq FROM (
          SELECT min(seq) AS seq FROM deliveries WHERE status = 'pending' AND order_key IS NOT NULL AND ${q.scope}
            AND next_attempt_at IS NOT NULL AND fault IS NOT 'bad_signature' GROUP BY order_key
        ) AS head JOIN deliveries AS d ON d.seq = head.seq WHERE ${q.due('d.next_attempt_at')} <= ?
      ) ORDER BY due_on_clock, seq`,
    { pluck: true },
  );
  const nextDue = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT min(${q.due('next_attempt_at')}) FROM deliveries WHERE status = 'pending' AND ${q.scope}`,
    { pluck: true },
  );
  const dueBetween = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT ${dueColumns}, ${q.due('next_attempt_at')} AS due_on_clock FROM deliveries WHERE status = 'pending' AND ${q.scope}
      AND due_on_clock >= ? AND due_on_clock <= ? ORDER BY due_on_clock, seq`,
  );
  const pendingAfter = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT id, next_attempt_at, ${q.due('next_attempt_at')} AS due_on_clock FROM deliveries WHERE status = 'pending' AND ${q.scope}
      AND due_on_clock > ? ORDER BY due_on_clock, seq`,
  );
  const waitingWithoutUrl = db.prepare<[string | null, string | null], Pick<Delivery, 'id' | 'account_id'>>(
    `SELECT id, account_id FROM deliveries WHERE status = 'pending' AND url IS NULL AND next_attempt_at IS NOT NULL
      AND (? IS NULL OR account_id = ?) ORDER BY seq`,
  );
  const canaryTo = db.prepare<[string, string], { id: string }>(
    'SELECT id FROM deliveries WHERE account_id = ? AND url = ? AND canary = 1 LIMIT 1',
  );
  const forResource = db.prepare<[string], Delivery>('SELECT * FROM deliveries WHERE resource_id = ? ORDER BY seq');
  const pendingInOrder = db.prepare<[string], DueDelivery>(
    `SELECT ${dueColumns} FROM deliveries WHERE order_key = ? AND status = 'pending' ORDER BY seq`,
  );
  const headInOrder = db.prepare<[string], DueDelivery>(
    `SELECT ${dueColumns} FROM deliveries WHERE order_key = ? AND status = 'pending' AND next_attempt_at IS NOT NULL
      AND fault IS NOT 'bad_signature' ORDER BY seq LIMIT 1`,
  );
  const insertAttempt = db.prepare(`INSERT INTO delivery_attempts (delivery_id, number, at, url, request_headers,
      response_status, response_body, error, duration_ms, ok)
    VALUES (@delivery_id, @number, @at, @url, @request_headers, @response_status, @response_body, @error, @duration_ms, @ok)`);
  const update = db.prepare(`UPDATE deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at,
      delivered_at = @delivered_at, updated_at = @updated_at WHERE id = @id`);
  const requeue = db.prepare("UPDATE deliveries SET status = 'pending', next_attempt_at = ?, updated_at = ? WHERE id = ?");
  const postpone = db.prepare("UPDATE deliveries SET next_attempt_at = ? WHERE id = ? AND status = 'pending'");
  const setSignature = db.prepare('UPDATE deliveries SET signature = ? WHERE id = ?');
  const attemptsOf = db.prepare<[string], AttemptRow>('SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY seq');
  const bySignature = db.prepare<[string], Delivery>(
    'SELECT * FROM deliveries WHERE signature IN (SELECT value FROM json_each(?)) ORDER BY seq DESC LIMIT 1',
  );
  const byBody = db.prepare<[string], Delivery>('SELECT * FROM deliveries WHERE body = ? ORDER BY seq DESC LIMIT 1');
  const page = keysetPage<Delivery>(db, 'deliveries', 'account_id = @scope', (row) => row);
  const pageAll = keysetPage<Delivery>(db, 'deliveries', "@scope = ''", (row) => row);
  const record = db.transaction((attempt: Omit<DeliveryAttempt, 'seq'>, u: DeliveryProgress) => {
    insertAttempt.run({ ...attempt, request_headers: JSON.stringify(attempt.request_headers), ok: attempt.ok ? 1 : 0 });
    update.run({ ...u, id: attempt.delivery_id });
  });
  return {
    insert: (row) => void insert.run({ ...row, order_key: row.order_key ?? null, canary: row.canary ?? 0 }),
    hasCanary: (accountId, url) => canaryTo.get(accountId, url) !== undefined,
    byId: (id) => byId.get(id),
    due: (nowMs) => due.all<DueDelivery>(nowMs),
    dueHeadIds: (nowMs) => dueHeadIds.all<string>(nowMs, nowMs),
    nextDue: () => nextDue.get<number | null>() ?? null,
    dueBetween: (fromMs, nowMs) => dueBetween.all<DueDelivery & { due_on_clock?: number }>(fromMs, nowMs).map(withoutDueOnClock),
    pendingAfter: (afterMs) => onClock(pendingAfter.iterate<Pick<Delivery, 'id' | 'next_attempt_at'> & { due_on_clock: number }>(afterMs)),
    page,
    pageAll: (req) => pageAll('', req),
    forResource: (resourceId) => forResource.all(resourceId),
    pendingInOrder: (orderKey) => pendingInOrder.all(orderKey),
    headInOrder: (orderKey) => headInOrder.get(orderKey),
    recordAttempt: (attempt, u) => {
      record(attempt, u);
      if (limit !== undefined && u.status !== 'pending' && ++finishedSincePrune >= pruneEvery(limit)) {
        finishedSincePrune = 0;
        prune(limit - pruneEvery(limit) + 1);
      }
    },
    requeue: (id, nowMs) => void requeue.run(nowMs, nowMs, id),
    postpone: (id, atMs) => void postpone.run(atMs, id),
    waitingWithoutUrl: (accountId) => waitingWithoutUrl.all(accountId, accountId),
    setSignature: (id, signature) => void setSignature.run(signature, id),
    attemptsOf: (deliveryId) => attemptsOf.all(deliveryId).map(toAttempt),
    matching: (signatures, body) => bySignature.get(JSON.stringify(signatures)) ?? byBody.get(body),
  };
}
