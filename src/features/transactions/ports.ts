/**
 * The transactions' storage (`transactions-store.ts` implements it), its read half, and the
 * webhook outbox a transition queues its webhook in (`outbox.ts`).
 */
import type { SimulatedFailures } from '../../core/domain/entities.js';
import type { Page, PageRequest } from '../../core/domain/ports.js';
import type { StoredPaymentMethod } from '../payment-methods/index.js';
import type { DeclineReason, Refund, Transaction, TransactionStatus } from './entities.js';

/** The `transactions` and `refunds` tables. */
export interface TransactionsRepo {
  /** Stores a new transaction; returns its `seq`. */
  insert(tx: Omit<Transaction, 'seq'>): number;
  /** The transaction of that account, or undefined (another account's is not found). */
  byId(accountId: string, id: string): Transaction | undefined;
  /** Any account's transaction (control API, payment page). */
  byIdAnyAccount(id: string): Transaction | undefined;
  page(accountId: string, req: PageRequest): Page<Transaction>;
  setStatus(id: string, status: TransactionStatus, at: number): void;
  addRefunded(id: string, amount: number, at: number): void;
  forSubscription(subscriptionId: string): Transaction[];
  /** Records which scenario rule decides the transaction (`scenario/rule`). */
  setScenarioRule(id: string, rule: string): void;
  /** Records why a payment was declined. */
  setDeclineReason(id: string, reason: DeclineReason): void;
  /** Records the (masked) payment method the customer paid with on the payment page. */
  setPaymentMethod(id: string, paymentMethod: StoredPaymentMethod): void;
  /** The earliest `link_expires_at` of a PENDING transaction, or null. */
  nextLinkExpiry(): number | null;
  /** PENDING transactions whose payment link expires at or before `nowMs`, earliest first. */
  linksExpiredAt(nowMs: number): Transaction[];
  /** Forgets a transaction's link expiry (it is no longer swept). */
  clearLinkExpiry(id: string): void;
  insertRefund(refund: Omit<Refund, 'seq'>): void;
  refundById(id: string): Refund | undefined;
  refundsOf(transactionId: string): Refund[];
  /** A keyset page of a transaction's refunds, newest first. */
  refundsPage(transactionId: string, req: PageRequest): Page<Refund>;
}

/** The read half of the transactions' storage (no write method): what routes and views read. */
export type TransactionQueries = Pick<
  TransactionsRepo,
  'byId' | 'byIdAnyAccount' | 'page' | 'forSubscription' | 'refundById' | 'refundsOf' | 'refundsPage'
>;

/** Queues webhooks inside the caller's unit of work, so no outcome is stored without its webhook. */
export interface Outbox {
  /** The payment webhook of a transaction that has just reached SUCCEEDED or FAILED. */
  paymentOutcome(tx: Transaction, simulated?: SimulatedFailures): void;
  /** The refund webhook (outcome SUCCESS) of a refund of `tx`. */
  refund(tx: Transaction, refund: Refund, simulated?: SimulatedFailures): void;
}
