/** One transaction's webhooks in order (ordering.ts), on in-memory deliveries. */
import { describe, expect, it } from 'vitest';
import { WebhookOrder, subscriptionOrderKey } from '../../../../src/core/webhooks/ordering.js';
import { delivery, fakeDeliveries, fakeRefunds } from './fake-deliveries.js';

const NOW = Date.UTC(2026, 10, 22, 10);

function setUp(...rows: ReturnType<typeof delivery>[]) {
  const deliveries = fakeDeliveries(...rows);
  const order = new WebhookOrder({ deliveries, resources: fakeRefunds({ id: 'rf_1', transaction_id: 'tx_1' }) });
  return { deliveries, order };
}

describe('WebhookOrder', () => {
  it("orders a refund's webhook under its transaction, a bad-signature copy under itself", () => {
    const payment = delivery();
    const refund = delivery({ kind: 'refund', resource_id: 'rf_1' });
    const copy = delivery({ fault: 'bad_signature' });
    const { order } = setUp(payment, refund, copy);
    expect(order.keyOf(payment)).toBe('tx_1');
    expect(order.keyOf(refund)).toBe('tx_1');
    expect(order.keyOf(copy)).toBe(`bad_signature:${copy.id}`);
  });

  it('a later delivery waits while an earlier one of its transaction is under way, and starts when it ends', () => {
    const payment = delivery();
    const refund = delivery({ kind: 'refund', resource_id: 'rf_1' });
    const { deliveries, order } = setUp(payment, refund);
    expect(order.mayStart(payment, 'tx_1', NOW)).toBe(true);
    order.started(payment.id, 'tx_1');
    expect(order.mayStart(refund, 'tx_1', NOW)).toBe(false);
    payment.status = 'delivered';
    expect(order.nextAfter('tx_1', NOW, () => false)).toBeUndefined(); // still busy
    order.ended('tx_1');
    expect(order.nextAfter('tx_1', NOW, () => false)?.id).toBe(refund.id);
    expect(deliveries.postponed).toEqual([]);
  });

  it('a later delivery is held (postponed) to the retry of an earlier one, then starts at once when that one ends', () => {
    const payment = delivery({ attempts: 1, next_attempt_at: NOW + 10_000 });
    const refund = delivery({ kind: 'refund', resource_id: 'rf_1' });
    const { deliveries, order } = setUp(payment, refund);
    expect(order.mayStart(refund, 'tx_1', NOW)).toBe(false);
    expect(deliveries.postponed).toEqual([[refund.id, NOW + 10_000]]);
    // the payment is resent now, before its retry; once it ends, the held refund goes now
    payment.next_attempt_at = NOW;
    order.started(payment.id, 'tx_1');
    payment.status = 'delivered';
    order.ended('tx_1');
    expect(order.nextAfter('tx_1', NOW + 1, () => false)?.id).toBe(refund.id);
    expect(deliveries.postponed.at(-1)).toEqual([refund.id, NOW + 1]);
  });

  it('after a failed attempt, later deliveries due before its retry are held behind it', () => {
    const payment = delivery();
    const refund = delivery({ kind: 'refund', resource_id: 'rf_1' });
    const { deliveries, order } = setUp(payment, refund);
    order.started(payment.id, 'tx_1');
    payment.attempts = 1;
    payment.next_attempt_at = NOW + 10_000;
    order.ended('tx_1');
    expect(order.nextAfter('tx_1', NOW, () => false)).toBeUndefined();
    expect(deliveries.postponed).toEqual([[refund.id, NOW + 10_000]]);
  });

  it('a bad-signature copy may always start, and is not the head of its transaction', () => {
    const copy = delivery({ fault: 'bad_signature' });
    const payment = delivery();
    const { order } = setUp(copy, payment);
    order.started(payment.id, 'tx_1');
    expect(order.mayStart(copy, order.keyOf(copy), NOW)).toBe(true);
    order.ended('tx_1');
    payment.status = 'delivered';
    expect(order.nextAfter('tx_1', NOW, () => false)).toBeUndefined();
  });

  it("releases the transaction's parked (out_of_order) deliveries after a refund webhook's attempt", () => {
    const parked = delivery({ fault: 'out_of_order', next_attempt_at: null });
    const refund = delivery({ kind: 'refund', resource_id: 'rf_1', fault: 'out_of_order' });
    const { deliveries, order } = setUp(parked, refund);
    let released = 0;
    order.releaseParked(refund, NOW, () => (released += 1));
    expect(released).toBe(1);
    expect(deliveries.byId(parked.id)!.next_attempt_at).toBe(NOW);
  });

  it("a subscription's charges share one queue: a renewal's webhook waits for the first charge's, another transaction's does not", () => {
    const queue = subscriptionOrderKey('sub_1', 'http://merchant.test/hook');
    const first = delivery({ resource_id: 'tx_s0', order_key: queue });
    const renewal = delivery({ resource_id: 'tx_s1', order_key: queue });
    const other = delivery({ resource_id: 'tx_9' });
    const { order } = setUp(first, renewal, other);
    expect([order.keyOf(first), order.keyOf(renewal), order.keyOf(other)]).toEqual([queue, queue, 'tx_9']);
    expect(order.mayStart(first, queue, NOW)).toBe(true);
    order.started(first.id, queue);
    expect(order.mayStart(renewal, queue, NOW)).toBe(false);
    expect(order.mayStart(other, 'tx_9', NOW)).toBe(true);
    // The first charge's webhook failed: the renewal's is held to its retry.
    first.attempts = 1;
    first.next_attempt_at = NOW + 10_000;
    order.ended(queue);
    expect(order.nextAfter(queue, NOW, () => false)).toBeUndefined();
    expect(renewal.next_attempt_at).toBe(NOW + 10_000);
  });
});
