/**
 * The durable webhook outbox (`domain/ports.ts` → `Outbox`): a domain transition queues its
 * webhook inside its own unit of work, so no outcome is ever stored without its webhook;
 * once that work commits, `onQueued` nudges the dispatcher (`dispatcher.ts`), which drains it.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { Delivery, SimulatedFailures, Transaction } from '../domain/entities.js';
import type { DeliveriesRepo, Outbox, UnitOfWork } from '../domain/ports.js';
import { paymentWebhookBody, refundWebhookBody } from './formats.js';

export interface OutboxDeps {
  clock: Clock;
  uow: UnitOfWork;
  deliveries: DeliveriesRepo;
  /** The sandbox's `--notification-url`, for transactions that name none. */
  defaultNotificationUrl: string | undefined;
  /** `--webhook-timezone` of the bodies' timestamps. */
  timeZone: string;
  /** Called after the commit of work that queued a webhook. */
  onQueued: () => void;
}

export function createOutbox(deps: OutboxDeps): Outbox {
  const { clock, uow, deliveries } = deps;

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
      const body = paymentWebhookBody({
        llTransactionId: tx.id,
        merchantTransactionId: tx.external_identifier ?? tx.id,
        amount: tx.amount,
        currency: tx.currency,
        status: tx.status,
        at: new Date(tx.resolved_at ?? clock.nowMs()),
        timeZone: deps.timeZone,
      });
      enqueue({ account_id: tx.account_id, kind: 'payment', resource_id: tx.id, url: urlOf(tx), body: JSON.stringify(body) }, simulated);
    },
    refund(tx, refund, simulated) {
      const body = refundWebhookBody({
        llTransactionId: refund.id,
        merchantTransactionId: refund.external_identifier ?? refund.id,
        originalTransactionId: tx.external_identifier ?? tx.id,
        amount: refund.amount,
        currency: refund.currency,
        reason: refund.reason ?? '',
        at: new Date(refund.created_at),
        timeZone: deps.timeZone,
      });
      enqueue({ account_id: tx.account_id, kind: 'refund', resource_id: refund.id, url: urlOf(tx), body: JSON.stringify(body) }, simulated);
    },
  };
}
