/**
 * A transaction as /v4 and the control API answer it, typed from its response schema: field
 * names, key order and value formats (amounts in minor units, timestamps ISO 8601) in one
 * place, shared by the API's answers and the event-style webhook bodies (`webhook-bodies.ts`).
 */
import type { z } from '@hono/zod-openapi';
import { hasPaymentUrl } from '../payment-methods/index.js';
import type { AccountMode } from '../../core/auth/account.js';
import type { Transaction } from './entities.js';
import { isoTimestamp } from '../../core/clock/clock.js';
import type { transactionSchema } from './transactions.schemas.js';

export type TransactionResponse = z.infer<typeof transactionSchema>;

/** The record of `tx`, with `paymentUrl` as its `payment_url`. */
export function transactionRecord(tx: Transaction, paymentUrl: string | null): TransactionResponse {
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

/**
 * A transaction record. `payment_url` is the payment page of a payment that waits for the
 * customer: every payment of a checkout account (`mode`), and a direct-mode payment with a
 * payment link (a QR, wallet or banking-app channel).
 */
export function transactionView(tx: Transaction, baseUrl: string, mode: AccountMode): TransactionResponse {
  return transactionRecord(tx, hasPaymentUrl(tx, mode) ? `${baseUrl}/pay/${tx.id}` : null);
}

/** Views already serialized, per entity object (see `transactionViewJson`). */
const serialized = new WeakMap<Transaction, { baseUrl: string; mode: AccountMode; json: string }>();

/**
 * `JSON.stringify(transactionView(...))`, kept per entity object: the store's read cache hands
 * out the same frozen object until the transaction's row changes (then a new one), so a page
 * of known transactions is not serialized again. Entities read inside a unit of work are new
 * objects each time and simply miss; the WeakMap lets them go with their object.
 */
export function transactionViewJson(tx: Transaction, baseUrl: string, mode: AccountMode): string {
  const kept = serialized.get(tx);
  if (kept && kept.baseUrl === baseUrl && kept.mode === mode) return kept.json;
  const json = JSON.stringify(transactionView(tx, baseUrl, mode));
  if (Object.isFrozen(tx)) serialized.set(tx, { baseUrl, mode, json });
  return json;
}
