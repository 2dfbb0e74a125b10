/**
 * A transaction as /v4 and the control API answer it (typed from its response schema): the
 * shared record of `wire/transaction.ts` with this sandbox's `payment_url`.
 */
import type { z } from '@hono/zod-openapi';
import { hasPaymentUrl } from '../payment-methods/index.js';
import type { AccountMode, Transaction } from '../../core/domain/entities.js';
import { transactionRecord } from './transaction-wire.js';
import type { transactionSchema } from './transactions.schemas.js';

export type TransactionResponse = z.infer<typeof transactionSchema>;

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
