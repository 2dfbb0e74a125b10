/** The wire format of a transaction (typed from its response schema), used by /v4 and the control API. */
import type { z } from '@hono/zod-openapi';
import { isoTimestamp } from '../../domain/clock.js';
import { hasPaymentUrl } from '../../domain/customer-step.js';
import type { AccountMode, Transaction } from '../../domain/entities.js';
import type { transactionSchema } from '../routes/transactions.schemas.js';

export type TransactionResponse = z.infer<typeof transactionSchema>;

/**
 * A transaction record. `payment_url` is the payment page of a payment that waits for the
 * customer: every payment of a checkout account (`mode`), and a direct-mode payment with a
 * payment link (a QR, wallet or banking-app channel).
 */
export function transactionView(tx: Transaction, baseUrl: string, mode: AccountMode): TransactionResponse {
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
    payment_url: hasPaymentUrl(tx, mode) ? `${baseUrl}/pay/${tx.id}` : null,
    decline_reason: tx.decline_reason,
    subscription_id: tx.subscription_id,
    created_at: isoTimestamp(tx.created_at),
    updated_at: isoTimestamp(tx.updated_at),
  };
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
