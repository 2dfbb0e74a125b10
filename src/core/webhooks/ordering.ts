/**
 * The order of webhooks: one queue per transaction (its payment's, then each refund's), or, for
 * the charges of a subscription, one queue per subscription and URL (every charge's webhooks and
 * their refunds', renewals and retries alike; `Delivery.order_key`). A queue goes one at a time
 * in the order queued: a later one waits while an earlier one is under way, and is held
 * (postponed) to an earlier one's retry while that one waits for it, so only the head of a queue
 * can be attempted now. Queues never wait for each other. A hand-sent body that joins no
 * transaction's queue has one of its own (`ownOrderKey`). A scripted `bad_signature` copy goes
 * outside this order; a parked `out_of_order` delivery waits for a refund webhook's attempt.
 */
import type { Delivery } from '../domain/entities.js';
import type { DeliveriesRepo, DueDelivery } from '../domain/ports.js';
import { isBadSignature } from './faults.js';

/** The prefix of a subscription's queue key. */
const SUBSCRIPTION_QUEUE = 'subscription:';

/** The prefix of a queue of one webhook alone (a hand-sent body that joins no transaction's queue). */
const OWN_QUEUE = 'own:';

/** A queue of its own for one webhook (`Delivery.order_key`), named by `unique`. */
export function ownOrderKey(unique: string): string {
  return `${OWN_QUEUE}${unique}`;
}

/** The queue (`Delivery.order_key`) of the webhooks of a subscription's charges to `url`. */
export function subscriptionOrderKey(subscriptionId: string, url: string | null): string {
  return `${SUBSCRIPTION_QUEUE}${subscriptionId} ${url ?? ''}`;
}

/**
 * What the order asks of the resources webhooks are about (the feature that owns them answers):
 * a refund's payment, and a payment's refunds.
 */
export interface DeliveryResources {
  /** The payment a refund belongs to, or undefined when `refundId` names no refund. */
  paymentOf(refundId: string): string | undefined;
  /** The ids of a payment's refunds, oldest first. */
  refundsOf(paymentId: string): string[];
}

export interface OrderingDeps {
  deliveries: Pick<DeliveriesRepo, 'forResource' | 'postpone' | 'pendingInOrder' | 'headInOrder'>;
  /** For the transaction a refund's webhook belongs to (its order follows the payment's). */
  resources: DeliveryResources;
}

export class WebhookOrder {
  /** Order keys (transactions) with a delivery admitted: their later deliveries wait for it. */
  private readonly busy = new Set<string>();
  /** Deliveries postponed behind an earlier one of their transaction that awaits a retry. */
  private readonly held = new Set<string>();

  constructor(private readonly deps: OrderingDeps) {}

  /** The key a delivery is ordered under: its queue (a subscription's), its transaction, or itself alone for a bad-signature copy. */
  keyOf(row: DueDelivery): string {
    if (isBadSignature(row)) return `bad_signature:${row.id}`;
    return row.order_key ?? this.paymentIdOf(row);
  }

  /**
   * In a pass: whether a due delivery may start now. It waits while one of its transaction is
   * under way (started when that one ends), and is held to the retry of an earlier one.
   */
  mayStart(row: DueDelivery, key: string, nowMs: number): boolean {
    if (isBadSignature(row)) return true;
    if (this.busy.has(key)) return false;
    const head = this.nextOf(key);
    if (head && head.id !== row.id) {
      if (head.next_attempt_at !== null && head.next_attempt_at > nowMs) this.holdBehind(row, head.next_attempt_at);
      return false;
    }
    return true;
  }

  /** A delivery of `key` was admitted: the others of its transaction wait for it. */
  started(id: string, key: string): void {
    this.busy.add(key);
    this.held.delete(id);
  }

  /** The delivery of `key` under way ended. */
  ended(key: string): void {
    this.busy.delete(key);
  }

  /**
   * After a delivery of `key` ended: its transaction's next one to start now (postponed to now
   * when it was held to a later instant), or none; later ones wait behind the next one's retry.
   */
  nextAfter(key: string, nowMs: number, underWay: (id: string) => boolean): DueDelivery | undefined {
    if (this.busy.has(key)) return undefined;
    const next = this.nextOf(key);
    if (!next || underWay(next.id) || next.next_attempt_at === null) return undefined;
    // A follower held behind the one that just ended starts now, whatever time it was held to.
    if (next.next_attempt_at <= nowMs || this.held.delete(next.id)) {
      if (next.next_attempt_at > nowMs) this.deps.deliveries.postpone(next.id, nowMs);
      return next;
    }
    const retryAt = next.next_attempt_at;
    for (const later of this.pendingOf(key)) {
      if (later.id !== next.id && later.next_attempt_at !== null && later.next_attempt_at < retryAt) this.holdBehind(later, retryAt);
    }
    return undefined;
  }

  /** After a refund webhook's attempt: its transaction's parked (`out_of_order`) deliveries are due at `nowMs`; `released` hears of each. */
  releaseParked(refundRow: Delivery, nowMs: number, released: () => void): void {
    const { deliveries } = this.deps;
    for (const d of deliveries.forResource(this.paymentIdOf(refundRow))) {
      if (d.status === 'pending' && d.next_attempt_at === null) {
        deliveries.postpone(d.id, nowMs);
        released();
      }
    }
  }

  /** The payment a delivery is about: its own id, or the refunded payment's. */
  private paymentIdOf(row: DueDelivery): string {
    if (row.kind === 'payment') return row.resource_id;
    return this.deps.resources.paymentOf(row.resource_id) ?? row.resource_id;
  }

  /** The pending deliveries of a queue (a subscription's, or a transaction's payment and refunds), earliest queued first. */
  private pendingOf(key: string): DueDelivery[] {
    const { deliveries, resources } = this.deps;
    let rows: DueDelivery[];
    if (key.startsWith(SUBSCRIPTION_QUEUE) || key.startsWith(OWN_QUEUE)) rows = deliveries.pendingInOrder(key);
    else {
      rows = deliveries.forResource(key);
      for (const refundId of resources.refundsOf(key)) rows.push(...deliveries.forResource(refundId));
      // A webhook of a subscription's charge waits in the subscription's queue, not here.
      rows = rows.filter((d) => (d.order_key ?? null) === null);
    }
    // Bad-signature copies go on their own; parked deliveries wait for a refund's attempt.
    return rows.filter((d) => d.status === 'pending' && !isBadSignature(d) && d.next_attempt_at !== null).sort((a, b) => a.seq - b.seq);
  }

  /** The earliest-queued delivery of a queue that is still pending, if any. */
  private nextOf(key: string): DueDelivery | undefined {
    // A subscription's queue may hold a year of renewals: its head alone is read.
    if (key.startsWith(SUBSCRIPTION_QUEUE)) return this.deps.deliveries.headInOrder(key);
    return this.pendingOf(key)[0];
  }

  /** Moves a delivery's next attempt to when the earlier one of its transaction is retried. */
  private holdBehind(row: DueDelivery, atMs: number): void {
    this.deps.deliveries.postpone(row.id, atMs);
    this.held.add(row.id);
  }
}
