/**
 * Payments and refunds as the transactions feature keeps them: typed, with every JSON column
 * already parsed by the store (`transactions-store.ts`). Times are epoch milliseconds on the
 * sandbox clock; `seq` is the insertion order that cursor pages run on.
 */
import type { StoredPaymentMethod } from '../payment-methods/index.js';
import type { ChargeOutcome } from '../scenarios/index.js';

export type TransactionStatus = 'PENDING' | ChargeOutcome;
/** The terminal statuses: a transaction's outcome. */
export type TransactionOutcome = Exclude<TransactionStatus, 'PENDING'>;

/**
 * Why a payment was declined (sandbox extension; the spec's webhook has no room for it):
 * `expired_card`, or `no_payment_method` for the first charge of a trial subscription whose
 * customer never completed the payment page before the trial ended.
 */
export type DeclineReason = 'expired_card' | 'no_payment_method';

export interface TransactionCustomer {
  email?: string;
  name?: string;
}

export interface Transaction {
  seq: number;
  id: string;
  account_id: string;
  status: TransactionStatus;
  amount: number;
  currency: string;
  description: string | null;
  customer: TransactionCustomer | null;
  return_url: string | null;
  cancel_url: string | null;
  external_identifier: string | null;
  notification_url: string | null;
  metadata: Record<string, string> | null;
  payment_method: StoredPaymentMethod | null;
  browser_info: Record<string, unknown> | null;
  refunded_amount: number;
  subscription_id: string | null;
  /** `scenario/rule` that decides the transaction, or null. */
  scenario_rule: string | null;
  /** Why the payment was declined, when the sandbox knows (`expired_card`), else null. */
  decline_reason: DeclineReason | null;
  /**
   * When its payment link expires (sandbox clock), for a payment that waits for the
   * customer's step; null for one that needs no step (a direct card, a renewal).
   */
  link_expires_at: number | null;
  created_at: number;
  updated_at: number;
  resolved_at: number | null;
}

export interface Refund {
  seq: number;
  id: string;
  account_id: string;
  transaction_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  external_identifier: string | null;
  status: 'SUCCESS';
  created_at: number;
  updated_at: number;
}
