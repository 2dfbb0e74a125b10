/**
 * The durable webhook outbox (`ports.ts` → `Outbox`): a domain transition queues its
 * webhook inside its own unit of work, so no outcome is ever stored without its webhook;
 * once that work commits, `onQueued` nudges the dispatcher (`dispatcher.ts`), which drains it.
 * The body is built once, here, in the configured format (`webhook-bodies.ts`: the spec's bodies or
 * the overview's events) and with the configured settlement currency; retries send it as is.
 * It also queues the scripted webhook faults: those of the transaction's scenario rule with
 * each webhook (`webhook_fault` steps), and those asked for a transaction from the control
 * API or the panel (`injectFault`), as extra or re-timed deliveries marked with their fault.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock/clock.js';
import type { Delivery, DeliveryFault, SimulatedFailures } from '../../core/domain/entities.js';
import type { WebhookFault } from '../scenarios/index.js';
import type { Transaction } from './entities.js';
import { invalidState, notFound } from '../../core/domain/errors.js';
import { newId } from '../../core/domain/ids.js';
import { ownOrderKey, subscriptionOrderKey } from '../../core/webhooks/ordering.js';
import type { DeliveriesRepo, UnitOfWork } from '../../core/domain/ports.js';
import type { Outbox, TransactionsRepo } from './ports.js';
import { paymentWebhookBody, refundEventBody, refundWebhookBody, transactionEventBody, type WebhookFormat } from './webhook-bodies.js';

export interface OutboxDeps {
  clock: Clock;
  uow: UnitOfWork;
  deliveries: DeliveriesRepo;
  /** Reads a refunded transaction as it is after the refund (event format), and the webhooks a control-API fault copies. */
  transactions: Pick<TransactionsRepo, 'byIdAnyAccount' | 'refundsOf' | 'refundById'>;
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
  /** Called as each delivery is inserted, inside its unit of work (the dispatcher notes the clock then). */
  onInserted?: (deliveryId: string, nextAttemptAt: number | null) => void;
  /** The `webhook_fault` steps of a scenario rule (by its `scenario/rule` label). */
  webhookFaults: (ruleLabel: string | null) => readonly WebhookFault[];
}

/** A webhook fault asked for one transaction (control API, panel). */
export interface FaultRequest {
  kind: DeliveryFault;
  /** For `delayed`: sandbox-clock seconds until the copy is sent. */
  seconds?: number;
}

/** The outbox, plus the webhook faults the control API asks for. */
export interface FaultingOutbox extends Outbox {
  /**
   * Queues a scripted fault on a transaction's webhooks, as copies of webhooks already
   * queued for it (same body): `duplicate` (its payment webhook once more), `delayed` (once
   * more, `seconds` from now on the sandbox clock), `bad_signature` (once more, signed over
   * another body, attempted once), `out_of_order` (its latest refund's webhook, then its
   * payment's, in that order). Returns the deliveries queued.
   * 404 for an unknown transaction; 409 `invalid_state` when it has no webhook (or, for
   * `out_of_order`, no refund) yet.
   */
  injectFault(transactionId: string, request: FaultRequest): Delivery[];
  /**
   * Queues a webhook whose body the caller chose (the webhook workbench's send), as an
   * ordinary delivery due now: signed, attempted, retried and logged as every other one. With
   * `joinQueue` it joins the queue of the transaction `fields.resource_id` names (its
   * subscription's, for a charge); without, it has a queue of its own.
   */
  queue(fields: QueuedWebhook, joinQueue: boolean): Delivery;
  /**
   * The transaction a payment's or a refund's id belongs to: its account and where its
   * webhooks go (its notification_url, else `--notification-url`); undefined when unknown.
   */
  webhookSubject(id: string): WebhookSubject | undefined;
}

/** Whose transaction an id is, and the URL its webhooks go to. */
export interface WebhookSubject {
  accountId: string;
  url: string | null;
}

/** A webhook the caller built: its account, what it is about, where it goes and its exact body. */
export type QueuedWebhook = Pick<Delivery, 'account_id' | 'kind' | 'resource_id' | 'url' | 'body'>;

/** The outbox over `deps.deliveries`, writing bodies in `deps.format`, with the scripted webhook faults. */
export function createOutbox(deps: OutboxDeps): FaultingOutbox {
  const { clock, uow, deliveries, settlementCurrency } = deps;
  const events = deps.format === 'event';

  /**
   * Runs `work` on the clock of the account whose webhook it queues: a delivery is timed on
   * its account's clock (as a transition's are, inside its request or step), so a copy or a
   * hand-sent body is due when the dispatcher looks at that account, however far its clock has
   * moved from the sandbox clock.
   */
  const onAccountClock = <T>(accountId: string, work: () => T): T => clock.inAccount(accountId, work);

  /** Where a transaction's webhooks go: its own notification_url, else the sandbox default. */
  const urlOf = (tx: Transaction): string | null => tx.notification_url ?? deps.defaultNotificationUrl ?? null;

  type Fields = QueuedWebhook & Pick<Delivery, 'order_key'>;

  /** The transaction of a payment's id, or of a refund's. */
  const transactionOf = (id: string): Transaction | undefined => {
    const payment = deps.transactions.byIdAnyAccount(id);
    if (payment) return payment;
    const refund = deps.transactions.refundById(id);
    return refund ? deps.transactions.byIdAnyAccount(refund.transaction_id) : undefined;
  };

  /** The queue of a transaction's webhooks: a subscription's charges share one per URL, others their transaction's own. */
  const orderKeyOf = (tx: Transaction): string | null =>
    tx.subscription_id === null ? null : subscriptionOrderKey(tx.subscription_id, urlOf(tx));

  /** Inserts one delivery, first attempted at `nextAttemptAt` (null: parked, see `Delivery.fault`); returns its id. */
  const insert = (fields: Fields, fault: DeliveryFault | null, nextAttemptAt: number | null, simulated?: SimulatedFailures): string => {
    const now = clock.nowMs();
    const id = newId();
    deliveries.insert({
      id,
      ...fields,
      signature: null,
      status: 'pending',
      attempts: 0,
      simulated_failures: simulated?.count ?? 0,
      simulated_failure_status: simulated?.status ?? 503,
      fault,
      next_attempt_at: nextAttemptAt,
      created_at: now,
      updated_at: now,
      delivered_at: null,
    });
    deps.onInserted?.(id, nextAttemptAt);
    uow.afterCommit(deps.onQueued, 'deliveries.queued');
    return id;
  };

  /**
   * Queues a webhook with the faults its scenario rule scripts: a bad-signature copy first,
   * then the webhook itself (delayed, or parked until the refund's webhook for `out_of_order`
   * when `parkForRefund`), then its duplicate.
   */
  const enqueueScripted = (
    fields: Fields,
    faults: readonly WebhookFault[],
    parkForRefund: boolean,
    simulated?: SimulatedFailures,
  ): void => {
    const now = clock.nowMs();
    const has = (kind: DeliveryFault) => faults.find((f) => f.kind === kind);
    if (has('bad_signature')) insert(fields, 'bad_signature', now);
    const delayed = has('delayed');
    const parked = parkForRefund && has('out_of_order') !== undefined;
    const at = parked ? null : delayed ? now + (delayed.seconds ?? 0) * 1000 : now;
    insert(fields, parked ? 'out_of_order' : delayed ? 'delayed' : null, at, simulated);
    if (has('duplicate')) insert(fields, 'duplicate', at, simulated);
  };

  /** Queues an ordinary webhook, due now. */
  const enqueue = (fields: Fields, simulated?: SimulatedFailures): void => void insert(fields, null, clock.nowMs(), simulated);

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
      const fields: Fields = {
        account_id: tx.account_id,
        kind: 'payment',
        resource_id: tx.id,
        url: urlOf(tx),
        body: JSON.stringify(body),
        order_key: orderKeyOf(tx),
      };
      const faults = deps.webhookFaults(tx.scenario_rule);
      // out_of_order parks a SUCCEEDED payment's webhook until its refund's has been attempted.
      if (faults.length > 0) enqueueScripted(fields, faults, tx.status === 'SUCCEEDED', simulated);
      else enqueue(fields, simulated);
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
      const fields: Fields = {
        account_id: tx.account_id,
        kind: 'refund',
        resource_id: refund.id,
        url: urlOf(tx),
        body: JSON.stringify(body),
        order_key: orderKeyOf(tx),
      };
      const faults = deps.webhookFaults(tx.scenario_rule);
      if (faults.length > 0) enqueueScripted(fields, faults, false, simulated);
      else enqueue(fields, simulated);
    },
    queue(fields, joinQueue) {
      // Joining, a body about a known transaction waits in that transaction's queue (its
      // subscription's, for a charge); otherwise in a queue of its own, so it never holds back
      // (nor waits for) the transaction's own webhooks.
      const tx = joinQueue ? transactionOf(fields.resource_id) : undefined;
      const orderKey = tx ? orderKeyOf(tx) : ownOrderKey(randomUUID());
      return onAccountClock(fields.account_id, () =>
        uow.run(() => deliveries.byId(insert({ ...fields, order_key: orderKey }, null, clock.nowMs()))!),
      );
    },
    webhookSubject(id) {
      const tx = transactionOf(id);
      return tx ? { accountId: tx.account_id, url: urlOf(tx) } : undefined;
    },
    injectFault(transactionId, request) {
      const owner = deps.transactions.byIdAnyAccount(transactionId)?.account_id;
      const inject = (): Delivery[] =>
        uow.run(() => {
          const tx = deps.transactions.byIdAnyAccount(transactionId);
          if (!tx) throw notFound(`Transaction ${transactionId} not found`);
          /** The first ordinary (or scripted, but not bad-signature) webhook about a resource. */
          const original = (resourceId: string): Delivery | undefined =>
            deliveries.forResource(resourceId).find((d) => d.fault !== 'bad_signature');
          const payment = original(tx.id);
          if (!payment) throw invalidState(`Transaction ${tx.id} is ${tx.status} and has no webhook yet: set its outcome first`);
          /** A copy of `d` with `fault`, first attempted at `at`, as stored. */
          const copy = (d: Delivery, fault: DeliveryFault, at: number): Delivery =>
            deliveries.byId(
              insert(
                {
                  account_id: d.account_id,
                  kind: d.kind,
                  resource_id: d.resource_id,
                  url: d.url,
                  body: d.body,
                  order_key: d.order_key ?? null,
                },
                fault,
                at,
              ),
            )!;
          const now = clock.nowMs();
          switch (request.kind) {
            case 'duplicate':
              return [copy(payment, 'duplicate', now)];
            case 'delayed':
              return [copy(payment, 'delayed', now + (request.seconds ?? 0) * 1000)];
            case 'bad_signature':
              return [copy(payment, 'bad_signature', now)];
            case 'out_of_order': {
              const refund = deps.transactions
                .refundsOf(tx.id)
                .map((r) => original(r.id))
                .find((d) => d !== undefined); // refundsOf: newest first
              if (!refund) throw invalidState(`Transaction ${tx.id} has no refund webhook yet: refund it first`);
              // Queued in this order, the transaction's order sends the refund's copy first.
              return [copy(refund, 'out_of_order', now), copy(payment, 'out_of_order', now)];
            }
          }
        });
      return owner === undefined ? inject() : onAccountClock(owner, inject);
    },
  };
}
