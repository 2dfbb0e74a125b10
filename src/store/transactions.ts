/** Queries of the `transactions` and `refunds` tables. JSON columns are stored as text. */
import type { Db } from './database.js';
import { keysetPage, type Page, type PageRequest } from './keyset.js';

export type TransactionStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface TransactionRow {
  seq: number;
  id: string;
  account_id: string;
  status: TransactionStatus;
  amount: number;
  currency: string;
  description: string | null;
  /** JSON of `{ email?, name? }`. */
  customer: string | null;
  return_url: string | null;
  cancel_url: string | null;
  external_identifier: string | null;
  notification_url: string | null;
  /** JSON object of strings. */
  metadata: string | null;
  /** JSON of the stored (masked) payment method. */
  payment_method: string | null;
  /** JSON of browser_info. */
  browser_info: string | null;
  refunded_amount: number;
  subscription_id: string | null;
  scenario_rule: string | null;
  created_at: number;
  updated_at: number;
  resolved_at: number | null;
}

export interface RefundRow {
  seq: number;
  id: string;
  account_id: string;
  transaction_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  external_identifier: string | null;
  status: string;
  created_at: number;
  updated_at: number;
}

export interface TransactionsStore {
  insert(row: Omit<TransactionRow, 'seq'>): void;
  /** The transaction of that account, or undefined (another account's is not found). */
  byId(accountId: string, id: string): TransactionRow | undefined;
  /** Any account's transaction (control API, payment page). */
  byIdAnyAccount(id: string): TransactionRow | undefined;
  page(accountId: string, req: PageRequest): Page<TransactionRow>;
  setStatus(id: string, status: TransactionStatus, at: number): void;
  addRefunded(id: string, amount: number, at: number): void;
  forSubscription(subscriptionId: string): TransactionRow[];
  /** Records which scenario rule decides the transaction (`scenario/rule`). */
  setScenarioRule(id: string, rule: string): void;
  insertRefund(row: Omit<RefundRow, 'seq'>): void;
  refundById(id: string): RefundRow | undefined;
  refundsOf(transactionId: string): RefundRow[];
}

export function transactionsStore(db: Db): TransactionsStore {
  const insert = db.prepare(`INSERT INTO transactions (id, account_id, status, amount, currency, description, customer,
      return_url, cancel_url, external_identifier, notification_url, metadata, payment_method, browser_info,
      refunded_amount, subscription_id, scenario_rule, created_at, updated_at, resolved_at)
    VALUES (@id, @account_id, @status, @amount, @currency, @description, @customer, @return_url, @cancel_url,
      @external_identifier, @notification_url, @metadata, @payment_method, @browser_info, @refunded_amount,
      @subscription_id, @scenario_rule, @created_at, @updated_at, @resolved_at)`);
  const byId = db.prepare('SELECT * FROM transactions WHERE id = ? AND account_id = ?');
  const byIdAny = db.prepare('SELECT * FROM transactions WHERE id = ?');
  const setStatus = db.prepare('UPDATE transactions SET status = ?, updated_at = ?, resolved_at = ? WHERE id = ?');
  const addRefunded = db.prepare('UPDATE transactions SET refunded_amount = refunded_amount + ?, updated_at = ? WHERE id = ?');
  const forSubscription = db.prepare('SELECT * FROM transactions WHERE subscription_id = ? ORDER BY seq');
  const setScenarioRule = db.prepare('UPDATE transactions SET scenario_rule = ? WHERE id = ?');
  const insertRefund = db.prepare(`INSERT INTO refunds (id, account_id, transaction_id, amount, currency, reason,
      external_identifier, status, created_at, updated_at)
    VALUES (@id, @account_id, @transaction_id, @amount, @currency, @reason, @external_identifier, @status, @created_at, @updated_at)`);
  const refundById = db.prepare('SELECT * FROM refunds WHERE id = ?');
  const refundsOf = db.prepare('SELECT * FROM refunds WHERE transaction_id = ? ORDER BY seq DESC');
  const page = keysetPage<TransactionRow>(db, 'transactions', 'account_id = @scope');
  return {
    insert: (row) => void insert.run(row),
    byId: (accountId, id) => byId.get(id, accountId) as TransactionRow | undefined,
    byIdAnyAccount: (id) => byIdAny.get(id) as TransactionRow | undefined,
    page,
    setStatus: (id, status, at) => void setStatus.run(status, at, at, id),
    addRefunded: (id, amount, at) => void addRefunded.run(amount, at, id),
    forSubscription: (subscriptionId) => forSubscription.all(subscriptionId) as TransactionRow[],
    setScenarioRule: (id, rule) => void setScenarioRule.run(rule, id),
    insertRefund: (row) => void insertRefund.run(row),
    refundById: (id) => refundById.get(id) as RefundRow | undefined,
    refundsOf: (transactionId) => refundsOf.all(transactionId) as RefundRow[],
  };
}
