/**
 * The go-live report learns from the state check: once `check-webhooks` was given a state URL
 * for a webhook URL (`POST /_sandbox/check-webhooks` with `state_url`), every payment webhook
 * that URL acknowledges is followed by `GET <state_url>/<merchant_transaction_id>`; when the
 * merchant's state then shows another `payment_status` than the payment's outcome (the
 * sandbox's truth), the report gets a `webhook_state_mismatch` finding.
 */
import type { Delivery } from '../../core/domain/entities.js';
import type { Transaction } from '../transactions/index.js';
import type { RecordedAttempt } from './go-live-wiring.js';

export interface StateCheckDeps {
  /** The state URL given with this webhook URL, if any. */
  stateUrlFor(webhookUrl: string): string | undefined;
  deliveries: { byId(id: string): Delivery | undefined };
  transactions: { byIdAnyAccount(id: string): Transaction | undefined };
  /** Reads the merchant's state (a GET); rejects on a network error or a timeout. */
  read(url: string): Promise<{ status: number; text: string }>;
  /** Hears of a contradiction. */
  mismatch(accountId: string, deliveryId: string, transactionId: string): void;
}

/** The payment_status a payment webhook body carries, or undefined. */
function statusIn(body: string): unknown {
  try {
    return (JSON.parse(body) as { payment_data?: { payment_status?: unknown } }).payment_data?.payment_status;
  } catch {
    return undefined;
  }
}

/** For the dispatcher's `onAttempt`: checks the state after each acknowledged payment webhook (in the background). */
export function stateCheck(deps: StateCheckDeps): (attempt: RecordedAttempt) => Promise<void> {
  return async ({ delivery, ok }) => {
    if (!ok || delivery.kind !== 'payment' || delivery.fault !== null) return;
    const row = deps.deliveries.byId(delivery.id);
    const stateUrl = row?.url ? deps.stateUrlFor(row.url) : undefined;
    if (!row || stateUrl === undefined) return;
    const tx = deps.transactions.byIdAnyAccount(row.resource_id);
    // Only the sandbox's own webhook of an outcome: not a body sent by hand with another status.
    if (!tx || tx.status === 'PENDING' || statusIn(row.body) !== tx.status) return;
    const reference = tx.external_identifier ?? tx.id;
    try {
      const { status, text } = await deps.read(`${stateUrl.replace(/\/+$/, '')}/${encodeURIComponent(reference)}`);
      const shown = status >= 200 && status < 300 ? (JSON.parse(text) as { payment_status?: unknown }).payment_status : undefined;
      if (shown !== tx.status) deps.mismatch(tx.account_id, row.id, tx.id);
    } catch {
      deps.mismatch(tx.account_id, row.id, tx.id); // a state URL that does not answer shows nothing of the payment
    }
  };
}
