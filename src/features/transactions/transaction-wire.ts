/**
 * The wire format of a transaction record: field names, key order and value formats (amounts
 * in minor units, timestamps ISO 8601), in one place. The API's answers
 * (`http/formatters/transaction.ts`) and the event-style webhook bodies
 * (`webhooks/formats.ts`) are both built from it.
 */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { Transaction } from '../../core/domain/entities.js';

/** A transaction as the API shows it. */
export interface TransactionRecord {
  type: 'transaction';
  id: string;
  merchant_account_id: string;
  status: Transaction['status'];
  amount: number;
  currency: string;
  refunded_amount: number;
  description: string | null;
  customer: Transaction['customer'];
  external_identifier: string | null;
  notification_url: string | null;
  return_url: string | null;
  cancel_url: string | null;
  metadata: Record<string, string> | null;
  payment_method: Transaction['payment_method'];
  /** The payment page's address, for a payment that has one; the caller knows the base URL. */
  payment_url: string | null;
  decline_reason: Transaction['decline_reason'];
  subscription_id: string | null;
  created_at: string;
  updated_at: string;
}

/** The record of `tx`, with `paymentUrl` as its `payment_url`. */
export function transactionRecord(tx: Transaction, paymentUrl: string | null): TransactionRecord {
  return {
    type: 'transaction',
    id: tx.id,
    merchant_account_id: tx.account_id,
    status: tx.status,
    amount: tx.amount,
    currency: tx.currency,
    refunded_amount: tx.refunded_amount,
    description: tx.description,
    customer: tx.customer,
    external_identifier: tx.external_identifier,
    notification_url: tx.notification_url,
    return_url: tx.return_url,
    cancel_url: tx.cancel_url,
    metadata: tx.metadata,
    payment_method: tx.payment_method,
    payment_url: paymentUrl,
    decline_reason: tx.decline_reason,
    subscription_id: tx.subscription_id,
    created_at: isoTimestamp(tx.created_at),
    updated_at: isoTimestamp(tx.updated_at),
  };
}

/** The fields of `record` named in `keys`, in the order of `keys` (a body's key order is part of its format). */
export function pickFields<T extends object, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, record[key]])) as Pick<T, K>;
}
