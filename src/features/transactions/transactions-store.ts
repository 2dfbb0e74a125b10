/**
 * The `transactions` and `refunds` tables (`domain/ports.ts` → `TransactionsRepo`). The JSON
 * columns (customer, metadata, payment_method, browser_info) are parsed and written here only.
 */
import type { Refund, Transaction } from './entities.js';
import type { TransactionsRepo } from './ports.js';
import type { Db } from '../../core/db/database.js';
import { accountTimedQuery } from '../../core/db/account-time.js';
import { createAccountClocks, type AccountClocks } from '../../core/clock/account-clocks.js';
import { keysetIdPage, keysetPage, objectRow } from '../../core/db/keyset.js';
import { ReadCache } from '../../core/db/read-cache.js';

/** A `transactions` row as SQLite holds it: the JSON columns as text. */
interface TransactionRow extends Omit<Transaction, 'customer' | 'metadata' | 'payment_method' | 'browser_info'> {
  customer: string | null;
  metadata: string | null;
  payment_method: string | null;
  browser_info: string | null;
}

const parse = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

function toTransaction(row: TransactionRow): Transaction {
  return {
    ...row,
    customer: parse(row.customer),
    metadata: parse(row.metadata),
    payment_method: parse(row.payment_method),
    browser_info: parse(row.browser_info),
  };
}

type Bound = string | number | null;
/** The insert's parameters, in its column order. */
type InsertArgs = [
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
  Bound,
];

/**
 * The transactions repository. Transactions read outside a unit of work are kept in a read
 * cache (`read-cache.ts`): a GET of a known transaction and a page's rows need no row read.
 * Every write of a transaction's row below forgets it first; `forget()` drops them all (a wipe).
 */
export function transactionsStore(db: Db, clocks: AccountClocks = createAccountClocks()): TransactionsRepo & { forget(): void } {
  const cache = new ReadCache<Transaction>(db);
  // Positional parameters, bound straight from the transaction: binding 22 named parameters
  // from an object (built by spreading the transaction) cost more than the insert itself.
  const insert = db.prepare<InsertArgs>(`INSERT INTO transactions (id, account_id, status, amount, currency, description,
      customer, return_url, cancel_url, external_identifier, notification_url, metadata, payment_method, browser_info,
      refunded_amount, subscription_id, scenario_rule, decline_reason, link_expires_at, created_at, updated_at, resolved_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // Read on a GET of a transaction not in the cache (and before every change of one): rows as arrays, see keyset.ts.
  const byIdAny = objectRow<TransactionRow, [string]>(db.prepare<[string]>('SELECT * FROM transactions WHERE id = ?'));
  const setStatus = db.prepare('UPDATE transactions SET status = ?, updated_at = ?, resolved_at = ? WHERE id = ?');
  const addRefunded = db.prepare('UPDATE transactions SET refunded_amount = refunded_amount + ?, updated_at = ? WHERE id = ?');
  const forSubscription = db.prepare<[string], TransactionRow>('SELECT * FROM transactions WHERE subscription_id = ? ORDER BY seq');
  const setScenarioRule = db.prepare('UPDATE transactions SET scenario_rule = ? WHERE id = ?');
  const setDeclineReason = db.prepare('UPDATE transactions SET decline_reason = ? WHERE id = ?');
  const setPaymentMethod = db.prepare('UPDATE transactions SET payment_method = ? WHERE id = ?');
  const nextLinkExpiry = accountTimedQuery(
    db,
    clocks,
    (q) =>
      `SELECT MIN(${q.due('link_expires_at')}) AS due FROM transactions WHERE status = 'PENDING' AND link_expires_at IS NOT NULL AND ${q.scope}`,
  );
  const linksExpiredAt = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT * FROM transactions WHERE status = 'PENDING' AND link_expires_at IS NOT NULL AND ${q.scope}
      AND ${q.due('link_expires_at')} <= ? ORDER BY ${q.due('link_expires_at')}, seq`,
  );
  const clearLinkExpiry = db.prepare('UPDATE transactions SET link_expires_at = NULL WHERE id = ?');
  const insertRefund = db.prepare(`INSERT INTO refunds (id, account_id, transaction_id, amount, currency, reason,
      external_identifier, status, created_at, updated_at)
    VALUES (@id, @account_id, @transaction_id, @amount, @currency, @reason, @external_identifier, @status, @created_at, @updated_at)`);
  const refundById = db.prepare<[string], Refund>('SELECT * FROM refunds WHERE id = ?');
  const refundsOf = db.prepare<[string], Refund>('SELECT * FROM refunds WHERE transaction_id = ? ORDER BY seq DESC');
  /** Any account's transaction: from the cache, or read (and kept, outside a transaction). */
  const cachedById = (id: string): Transaction | undefined => {
    const hit = cache.get(id);
    if (hit) return hit;
    const row = byIdAny(id);
    return row ? cache.remember(id, toTransaction(row)) : undefined;
  };
  // A page reads the ids of its rows; the rows themselves come from the cache.
  const page = keysetIdPage<Transaction>(db, 'transactions', 'account_id = @scope', (id) => cachedById(id)!);
  const refundsPage = keysetPage<Refund>(db, 'refunds', 'transaction_id = @scope', (row) => row);
  return {
    insert: (tx) =>
      Number(
        insert.run(
          tx.id,
          tx.account_id,
          tx.status,
          tx.amount,
          tx.currency,
          tx.description,
          text(tx.customer),
          tx.return_url,
          tx.cancel_url,
          tx.external_identifier,
          tx.notification_url,
          text(tx.metadata),
          text(tx.payment_method),
          text(tx.browser_info),
          tx.refunded_amount,
          tx.subscription_id,
          tx.scenario_rule,
          tx.decline_reason,
          tx.link_expires_at,
          tx.created_at,
          tx.updated_at,
          tx.resolved_at,
        ).lastInsertRowid,
      ),
    byId: (accountId, id) => {
      const tx = cachedById(id);
      return tx?.account_id === accountId ? tx : undefined;
    },
    byIdAnyAccount: cachedById,
    page,
    setStatus: (id, status, at) => {
      cache.forget(id);
      setStatus.run(status, at, at, id);
    },
    addRefunded: (id, amount, at) => {
      cache.forget(id);
      addRefunded.run(amount, at, id);
    },
    forSubscription: (subscriptionId) => forSubscription.all(subscriptionId).map(toTransaction),
    setScenarioRule: (id, rule) => {
      cache.forget(id);
      setScenarioRule.run(rule, id);
    },
    setDeclineReason: (id, reason) => {
      cache.forget(id);
      setDeclineReason.run(reason, id);
    },
    setPaymentMethod: (id, paymentMethod) => {
      cache.forget(id);
      setPaymentMethod.run(JSON.stringify(paymentMethod), id);
    },
    nextLinkExpiry: () => nextLinkExpiry.get<{ due: number | null }>()?.due ?? null,
    linksExpiredAt: (nowMs) => linksExpiredAt.all<TransactionRow>(nowMs).map(toTransaction),
    clearLinkExpiry: (id) => {
      cache.forget(id);
      clearLinkExpiry.run(id);
    },
    insertRefund: (refund) => void insertRefund.run(refund),
    refundById: (id) => refundById.get(id),
    refundsOf: (transactionId) => refundsOf.all(transactionId),
    refundsPage,
    forget: () => cache.clear(),
  };
}
