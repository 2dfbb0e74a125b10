/**
 * The order of one transaction's webhooks: its payment's, then each refund's, one at a time in
 * the order queued. The transactions of one subscription (its charges and every retry of
 * them) share one order, so their webhooks reach the URL in the order of their events. A later one waits while an earlier one is under way, and is held (postponed)
 * to an earlier one's retry while that one waits for it. A scripted `bad_signature` copy goes
 * outside this order; a parked `out_of_order` delivery waits for a refund webhook's attempt.
 */
import type { Delivery } from '../domain/entities.js';
import type { DeliveriesRepo, DueDelivery, TransactionsRepo } from '../domain/ports.js';
import { isBadSignature } from './faults.js';

export interface OrderingDeps {
  deliveries: Pick<DeliveriesRepo, 'forResource' | 'postpone'>;
  /** For the transaction a refund's webhook belongs to (its order follows the payment's). */
  transactions: Pick<TransactionsRepo, 'refundById' | 'refundsOf' | 'byIdAnyAccount' | 'forSubscription'>;
}

/** Order keys of a subscription's transactions begin with this (a transaction's key is its UUID). */
const SUBSCRIPTION_KEY = 'subscription:';

export class TransactionOrder {
  /** Order keys (transactions) with a delivery admitted: their later deliveries wait for it. */
  private readonly busy = new Set<string>();
  /** Deliveries postponed behind an earlier one of their transaction that awaits a retry. */
  private readonly held = new Set<string>();

  constructor(private readonly deps: OrderingDeps) {}

  /**
   * The key a delivery is ordered under: its transaction's subscription, else its transaction,
   * or itself alone for a bad-signature copy.
   */
  keyOf(row: DueDelivery): string {
    if (isBadSignature(row)) return `bad_signature:${row.id}`;
    const transactionId = this.transactionOf(row);
    const subscriptionId = this.deps.transactions.byIdAnyAccount(transactionId)?.subscription_id;
    return subscriptionId ? `${SUBSCRIPTION_KEY}${subscriptionId}` : transactionId;
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
  nextAfter(key: string, nowMs: number, underWay: (id: string) => boolean): Delivery | undefined {
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
    for (const d of deliveries.forResource(this.transactionOf(refundRow))) {
      if (d.status === 'pending' && d.next_attempt_at === null) {
        deliveries.postpone(d.id, nowMs);
        released();
      }
    }
  }

  /** The transaction a delivery is about: the payment's own id, or the refunded transaction's. */
  private transactionOf(row: DueDelivery): string {
    if (row.kind === 'payment') return row.resource_id;
    return this.deps.transactions.refundById(row.resource_id)?.transaction_id ?? row.resource_id;
  }

  /**
   * The pending deliveries of an order key (a transaction: its payment's and its refunds'; a
   * subscription: those of each of its transactions), earliest queued first.
   */
  private pendingOf(key: string): Delivery[] {
    const { deliveries, transactions } = this.deps;
    const transactionIds = key.startsWith(SUBSCRIPTION_KEY)
      ? transactions.forSubscription(key.slice(SUBSCRIPTION_KEY.length)).map((tx) => tx.id)
      : [key];
    const rows: Delivery[] = [];
    for (const transactionId of transactionIds) {
      rows.push(...deliveries.forResource(transactionId));
      for (const refund of transactions.refundsOf(transactionId)) rows.push(...deliveries.forResource(refund.id));
    }
    // Bad-signature copies go on their own; parked deliveries wait for a refund's attempt.
    return rows.filter((d) => d.status === 'pending' && !isBadSignature(d) && d.next_attempt_at !== null).sort((a, b) => a.seq - b.seq);
  }

  /** The earliest-queued delivery of an order key that is still pending, if any. */
  private nextOf(key: string): Delivery | undefined {
    return this.pendingOf(key)[0];
  }

  /** Moves a delivery's next attempt to when the earlier one of its transaction is retried. */
  private holdBehind(row: DueDelivery, atMs: number): void {
    this.deps.deliveries.postpone(row.id, atMs);
    this.held.add(row.id);
  }
}
