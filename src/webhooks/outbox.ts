/**
 * The durable webhook outbox (`domain/ports.ts` → `Outbox`): a domain transition queues its
 * webhook inside its own unit of work, so no outcome is ever stored without its webhook;
 * once that work commits, `onQueued` nudges the dispatcher (`dispatcher.ts`), which drains it.
 * The body is built once, here, in the configured format (`formats.ts`: the spec's bodies or
 * the overview's events) and with the configured settlement currency; retries send it as is.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { Delivery, SimulatedFailures, Transaction } from '../domain/entities.js';
import type { DeliveriesRepo, Outbox, TransactionsRepo, UnitOfWork } from '../domain/ports.js';
import { paymentWebhookBody, refundEventBody, refundWebhookBody, transactionEventBody, type WebhookFormat } from './formats.js';

export interface OutboxDeps {
  clock: Clock;
  uow: UnitOfWork;
  deliveries: DeliveriesRepo;
  /** Reads a refunded transaction as it is after the refund (event format). */
  transactions: Pick<TransactionsRepo, 'byIdAnyAccount'>;
  /** `--webhook-format`: the spec's bodies (default) or the overview's events. */
  format?: WebhookFormat;
  /** `--settlement-currency`; absent: each payment settles in its own currency. */
  settlementCurrency?: string;
  /** The sandbox's `--notification-url`, for transactions that name none. */
  defaultNotificationUrl: string | undefined;
  /** `--webhook-timezone` of the bodies' timestamps. */
  timeZone: string;
  /** Called after the commit of work that queued a webhook. */
  onQueued: () => void;
}

/** The outbox over `deps.deliveries`, writing bodies in `deps.format`. */
export function createOutbox(deps: OutboxDeps): Outbox {
  const { clock, uow, deliveries, settlementCurrency } = deps;
  const events = deps.format === 'event';

  /** Where a transaction's webhooks go: its own notification_url, else the sandbox default. */
  const urlOf = (tx: Transaction): string | null => tx.notification_url ?? deps.defaultNotificationUrl ?? null;

  const enqueue = (fields: Pick<Delivery, 'account_id' | 'kind' | 'resource_id' | 'url' | 'body'>, simulated?: SimulatedFailures): void => {
    const now = clock.nowMs();
    deliveries.insert({
      id: randomUUID(),
      ...fields,
      signature: null,
      status: 'pending',
      attempts: 0,
      simulated_failures: simulated?.count ?? 0,
      simulated_failure_status: simulated?.status ?? 503,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
      delivered_at: null,
    });
    uow.afterCommit(deps.onQueued, 'deliveries.queued');
  };

  return {
    paymentOutcome(tx, simulated) {
      if (tx.status === 'PENDING') throw new Error('a payment webhook needs a terminal status');
      const at = new Date(tx.resolved_at ?? clock.nowMs());
      const body = events
        ? transactionEventBody({ eventId: randomUUID(), transaction: tx, at, settlementCurrency })
        : paymentWebhookBody({
        llTransactionId: tx.id,
        merchantTransactionId: tx.external_identifier ?? tx.id,
        amount: tx.amount,
        currency: tx.currency,
        status: tx.status,
        at,
        timeZone: deps.timeZone,
        settlementCurrency,
      });
      enqueue({ account_id: tx.account_id, kind: 'payment', resource_id: tx.id, url: urlOf(tx), body: JSON.stringify(body) }, simulated);
    },
    refund(tx, refund, simulated) {
      const at = new Date(refund.created_at);
      const refunded = deps.transactions.byIdAnyAccount(tx.id) ?? tx;
      const body = events
        ? refundEventBody({ eventId: randomUUID(), transaction: refunded, refund, at, settlementCurrency })
        : refundWebhookBody({
        llTransactionId: refund.id,
        merchantTransactionId: refund.external_identifier ?? refund.id,
        originalTransactionId: tx.external_identifier ?? tx.id,
        amount: refund.amount,
        currency: refund.currency,
        reason: refund.reason ?? '',
        at,
        timeZone: deps.timeZone,
        settlementCurrency,
      });
      enqueue({ account_id: tx.account_id, kind: 'refund', resource_id: refund.id, url: urlOf(tx), body: JSON.stringify(body) }, simulated);
    },
  };
}
