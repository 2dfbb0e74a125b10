/** The outbox with fakes of its ports: webhooks queued inside the unit of work, scripted faults, refunds. */
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../../src/core/domain/entities.js';
import type { WebhookFault } from '../../../src/features/scenarios/index.js';
import type { Refund } from '../../../src/features/transactions/entities.js';
import type { DeliveriesRepo } from '../../../src/core/domain/ports.js';
import { subscriptionOrderKey } from '../../../src/core/webhooks/ordering.js';
import { createOutbox } from '../../../src/features/transactions/outbox.js';
import { fakeClock, fakeTransactions, fakeUnitOfWork, transactionEntity } from '../../support/fakes.js';

function fakeDeliveries(): DeliveriesRepo & { rows: Delivery[] } {
  const rows: Delivery[] = [];
  const none = (): never => {
    throw new Error('not used by the outbox here');
  };
  return {
    rows,
    insert: (d) => void rows.push({ ...d, seq: rows.length + 1 }),
    byId: (id) => rows.find((d) => d.id === id),
    forResource: (id) => rows.filter((d) => d.resource_id === id),
    pendingInOrder: none,
    headInOrder: none,
    due: none,
    dueHeadIds: none,
    dueBetween: none,
    nextDue: none,
    pendingAfter: none,
    page: none,
    pageAll: none,
    recordAttempt: none,
    requeue: none,
    postpone: none,
    waitingWithoutUrl: none,
    setSignature: none,
    attemptsOf: none,
    matching: none,
    hasCanary: (accountId, url) => rows.some((d) => d.account_id === accountId && d.url === url && d.canary === 1),
  };
}

function outbox(faults: readonly WebhookFault[] = []) {
  const clock = fakeClock();
  const uow = fakeUnitOfWork();
  const deliveries = fakeDeliveries();
  const transactions = fakeTransactions();
  let nudges = 0;
  const box = createOutbox({
    clock,
    uow,
    deliveries,
    transactions,
    defaultNotificationUrl: 'http://merchant.test/hooks',
    timeZone: 'UTC',
    onQueued: () => void nudges++,
    webhookFaults: () => faults,
  });
  return { box, uow, deliveries, transactions, clock, nudges: () => nudges };
}

describe('outbox', () => {
  it('queues the payment webhook inside the unit of work and nudges the dispatcher only after the commit', () => {
    const { box, uow, deliveries, nudges } = outbox();
    const tx = transactionEntity({ status: 'SUCCEEDED', resolved_at: 1_700_000_000_000 });
    uow.run(() => {
      box.paymentOutcome(tx);
      box.paymentOutcome({ ...tx, id: 'tx_2' });
      expect(deliveries.rows).toHaveLength(2);
      expect(nudges()).toBe(0);
    });
    expect(nudges()).toBeGreaterThan(0); // after the commit (the real unit of work folds them into one by key)
    expect(deliveries.rows[0]).toMatchObject({
      kind: 'payment',
      resource_id: 'tx_1',
      url: 'http://merchant.test/hooks',
      fault: null,
      attempts: 0,
    });
    expect(JSON.parse(deliveries.rows[0]!.body)).toMatchObject({ ll_transaction_id: 'tx_1', merchant_transaction_id: 'tx_1' });
    expect(() => box.paymentOutcome(transactionEntity())).toThrow(/terminal status/);
  });

  it("queues a subscription charge's webhook in its subscription's queue to its URL; a one-off payment's in its own", () => {
    const { box, uow, deliveries } = outbox();
    uow.run(() => {
      box.paymentOutcome(
        transactionEntity({ status: 'SUCCEEDED', resolved_at: 1, subscription_id: 'sub_1', notification_url: 'http://a.test/h' }),
      );
      box.paymentOutcome(
        transactionEntity({ id: 'tx_2', status: 'FAILED', resolved_at: 2, subscription_id: 'sub_1', notification_url: 'http://a.test/h' }),
      );
      box.paymentOutcome(transactionEntity({ id: 'tx_3', status: 'SUCCEEDED', resolved_at: 3 }));
    });
    expect(deliveries.rows.map((d) => d.order_key)).toEqual([
      subscriptionOrderKey('sub_1', 'http://a.test/h'),
      subscriptionOrderKey('sub_1', 'http://a.test/h'),
      null,
    ]);
  });

  it('a rule scripting faults queues a bad-signature copy first, the webhook delayed, then its duplicate; simulated failures travel along', () => {
    const { box, uow, deliveries, clock } = outbox([{ kind: 'bad_signature' }, { kind: 'delayed', seconds: 30 }, { kind: 'duplicate' }]);
    uow.run(() => box.paymentOutcome(transactionEntity({ status: 'FAILED', resolved_at: 1 }), { count: 2, status: 502 }));
    expect(deliveries.rows.map((d) => [d.fault, d.next_attempt_at, d.simulated_failures])).toEqual([
      ['bad_signature', clock.nowMs(), 0],
      ['delayed', clock.nowMs() + 30_000, 2],
      ['duplicate', clock.nowMs() + 30_000, 2],
    ]);
  });

  it('queues the refund webhook of a refund, due now', () => {
    const { box, uow, deliveries, clock } = outbox();
    const tx = transactionEntity({ status: 'SUCCEEDED', refunded_amount: 500 });
    const refund: Refund = {
      seq: 1,
      id: 'rf_1',
      account_id: tx.account_id,
      transaction_id: tx.id,
      amount: 500,
      currency: 'USD',
      reason: null,
      external_identifier: null,
      status: 'SUCCESS',
      created_at: clock.nowMs(),
      updated_at: clock.nowMs(),
    };
    uow.run(() => box.refund(tx, refund));
    expect(deliveries.rows).toHaveLength(1);
    expect(deliveries.rows[0]).toMatchObject({ kind: 'refund', next_attempt_at: clock.nowMs(), fault: null });
  });
});
