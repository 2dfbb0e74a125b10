/**
 * The durable webhook outbox: a domain transition calls `enqueuePaymentWebhook` or
 * `enqueueRefundWebhook` inside its own database transaction, so no outcome is ever stored
 * without its webhook. The dispatcher (`dispatcher.ts`) drains it.
 */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../sandbox.js';
import type { DeliveryRow } from '../store/deliveries.js';
import type { RefundRow, TransactionRow } from '../store/transactions.js';
import { paymentWebhookBody, refundWebhookBody } from './formats.js';

/** Where a transaction's webhooks go: its own notification_url, else the sandbox default. */
export function notificationUrlOf(sandbox: Sandbox, tx: TransactionRow): string | null {
  return tx.notification_url ?? sandbox.options.notificationUrl ?? null;
}

function enqueue(
  sandbox: Sandbox,
  fields: Pick<DeliveryRow, 'account_id' | 'kind' | 'resource_id' | 'url' | 'body'>,
  simulatedFailures = 0,
  simulatedFailureStatus = 503,
): DeliveryRow {
  const now = sandbox.clock.nowMs();
  const row: Omit<DeliveryRow, 'seq'> = {
    id: randomUUID(),
    ...fields,
    signature: null,
    status: 'pending',
    attempts: 0,
    simulated_failures: simulatedFailures,
    simulated_failure_status: simulatedFailureStatus,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
    delivered_at: null,
  };
  sandbox.stores.deliveries.insert(row);
  return { seq: 0, ...row };
}

/** Simulated webhook failures a scenario asked for on this transaction (`webhook_failures` step). */
export interface SimulatedFailures {
  count: number;
  status: number;
}

/** Queues the payment webhook of a transaction that has just reached SUCCEEDED or FAILED. */
export function enqueuePaymentWebhook(sandbox: Sandbox, tx: TransactionRow, simulated?: SimulatedFailures): DeliveryRow {
  if (tx.status === 'PENDING') throw new Error('a payment webhook needs a terminal status');
  const body = paymentWebhookBody({
    llTransactionId: tx.id,
    merchantTransactionId: tx.external_identifier ?? tx.id,
    amount: tx.amount,
    currency: tx.currency,
    status: tx.status,
    at: new Date(tx.resolved_at ?? sandbox.clock.nowMs()),
    timeZone: sandbox.options.webhookTimezone,
  });
  return enqueue(
    sandbox,
    { account_id: tx.account_id, kind: 'payment', resource_id: tx.id, url: notificationUrlOf(sandbox, tx), body: JSON.stringify(body) },
    simulated?.count,
    simulated?.status,
  );
}

/** Queues the refund webhook (outcome SUCCESS) of a refund of `tx`. */
export function enqueueRefundWebhook(sandbox: Sandbox, tx: TransactionRow, refund: RefundRow, simulated?: SimulatedFailures): DeliveryRow {
  const body = refundWebhookBody({
    llTransactionId: refund.id,
    merchantTransactionId: refund.external_identifier ?? refund.id,
    originalTransactionId: tx.external_identifier ?? tx.id,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason ?? '',
    at: new Date(refund.created_at),
    timeZone: sandbox.options.webhookTimezone,
  });
  return enqueue(
    sandbox,
    { account_id: tx.account_id, kind: 'refund', resource_id: refund.id, url: notificationUrlOf(sandbox, tx), body: JSON.stringify(body) },
    simulated?.count,
    simulated?.status,
  );
}
