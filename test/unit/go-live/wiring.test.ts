/** What the go-live report hears of attempts, outcomes and refunds, on fakes of the repositories. */
import { describe, expect, it } from 'vitest';
import { createGoLiveWiring, type RecordedAttempt } from '../../../src/features/go-live/go-live-wiring.js';
import type { Delivery } from '../../../src/core/domain/entities.js';
import type { Subscription } from '../../../src/features/subscriptions/entities.js';
import type { Refund } from '../../../src/features/transactions/entities.js';
import type { ObservedAttempt, ObservedOutcome } from '../../../src/features/go-live/go-live-observations.js';
import { fakeOutbox, fakeUnitOfWork, transactionEntity } from '../../support/fakes.js';

function setup({
  refunds = [] as Pick<Refund, 'id' | 'transaction_id'>[],
  deliveries = [] as Pick<Delivery, 'fault' | 'status'>[],
  subscription = undefined as Subscription | undefined,
  defaultNotificationUrl = undefined as string | undefined,
  marked = [] as string[],
} = {}) {
  const heard = { attempts: [] as ObservedAttempt[], outcomes: [] as ObservedOutcome[], refunds: [] as [string, boolean][] };
  const uow = fakeUnitOfWork();
  // The ids marked as not the merchant's (`acc_a` only), and whether a skipped request is running.
  const marks = new Set(marked);
  const skipped = { running: false };
  const wiring = createGoLiveWiring({
    report: {
      attempt: (a) => void heard.attempts.push(a),
      outcome: (o) => void heard.outcomes.push(o),
      refund: (accountId, partial) => void heard.refunds.push([accountId, partial]),
      notTheMerchants: (accountId, id) => void marks.add(`${accountId} ${id}`),
      isNotTheMerchants: (accountId, id) => id !== null && (marks.has(id) || marks.has(`${accountId} ${id}`)),
    },
    inRequestNotTheMerchants: () => skipped.running,
    uow,
    transactions: { refundById: (id) => refunds.find((r) => r.id === id) as Refund | undefined },
    subscriptions: { byId: () => subscription },
    deliveries: { forResource: () => deliveries as Delivery[] },
    defaultNotificationUrl,
  });
  return { wiring, heard, uow, marks, skipped };
}

const attempt = (delivery: Partial<RecordedAttempt['delivery']> = {}): RecordedAttempt => ({
  delivery: { id: 'dlv_1', account_id: 'acc_a', kind: 'payment', resource_id: 'tx_1', fault: null, ...delivery },
  number: 1,
  ok: true,
  status: 200,
  contacted: true,
  timedOut: false,
  durationMs: 12,
});

describe('createGoLiveWiring', () => {
  it("a payment webhook's attempt is about its transaction", () => {
    const { wiring, heard } = setup();
    wiring.onAttempt(attempt());
    expect(heard.attempts).toEqual([
      {
        accountId: 'acc_a',
        deliveryId: 'dlv_1',
        kind: 'payment',
        transactionId: 'tx_1',
        fault: null,
        number: 1,
        ok: true,
        contacted: true,
        status: 200,
        timedOut: false,
        durationMs: 12,
        originalAcknowledged: false,
        canary: false,
      },
    ]);
  });

  it("a refund webhook's attempt is about the refunded transaction (the refund's id when it is gone)", () => {
    const { wiring, heard } = setup({ refunds: [{ id: 're_1', transaction_id: 'tx_9' }] });
    wiring.onAttempt(attempt({ kind: 'refund', resource_id: 're_1' }));
    wiring.onAttempt(attempt({ kind: 'refund', resource_id: 're_gone' }));
    expect(heard.attempts.map((a) => a.transactionId)).toEqual(['tx_9', 're_gone']);
  });

  it('a duplicate copy knows whether the webhook it copies was acknowledged', () => {
    const acknowledged = setup({ deliveries: [{ fault: null, status: 'delivered' }] });
    acknowledged.wiring.onAttempt(attempt({ fault: 'duplicate' }));
    const notYet = setup({
      deliveries: [
        { fault: null, status: 'pending' },
        { fault: 'duplicate', status: 'delivered' },
      ],
    });
    notYet.wiring.onAttempt(attempt({ fault: 'duplicate' }));
    expect([acknowledged.heard.attempts[0]!.originalAcknowledged, notYet.heard.attempts[0]!.originalAcknowledged]).toEqual([true, false]);
  });

  it('an outcome is read when reached and reported only after its unit of work commits; none when it rolls back', () => {
    const { wiring, heard, uow } = setup({ defaultNotificationUrl: 'http://127.0.0.1:3000/hook' });
    uow.run(() => {
      wiring.onResolved(transactionEntity({ status: 'SUCCEEDED', resolved_at: 5 }));
      expect(heard.outcomes).toEqual([]);
    });
    expect(heard.outcomes).toEqual([
      {
        accountId: 'acc_a',
        transactionId: 'tx_1',
        status: 'SUCCEEDED',
        noTarget: false,
        linkExpired: false,
        renewal: false,
        subscription: false,
        atMs: 5,
      },
    ]);
    expect(() =>
      uow.run(() => {
        wiring.onResolved(transactionEntity({ id: 'tx_2', status: 'FAILED' }));
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(heard.outcomes).toHaveLength(1);
  });

  it('an outcome says: no webhook target, an expired link, a renewal, a subscription charge, and when it was reached', () => {
    const subscription = { state: { first_charge_id: 'tx_first' } } as Subscription;
    const { wiring, heard } = setup({ subscription });
    wiring.onResolved(
      transactionEntity({ id: 'tx_2', status: 'FAILED', link_expires_at: 100, resolved_at: 100, subscription_id: 'sub_1' }),
    );
    wiring.onResolved(
      transactionEntity({
        id: 'tx_first',
        status: 'FAILED',
        link_expires_at: 100,
        resolved_at: 99,
        subscription_id: 'sub_1',
        notification_url: 'http://127.0.0.1:3000/h',
      }),
    );
    expect(heard.outcomes).toEqual([
      {
        accountId: 'acc_a',
        transactionId: 'tx_2',
        status: 'FAILED',
        noTarget: true,
        linkExpired: true,
        renewal: true,
        subscription: true,
        atMs: 100,
      },
      {
        accountId: 'acc_a',
        transactionId: 'tx_first',
        status: 'FAILED',
        noTarget: false,
        linkExpired: false,
        renewal: false,
        subscription: true,
        atMs: 99,
      },
    ]);
  });

  it("the outbox's refunds are still queued, and reported (partial or whole) after the commit", () => {
    const { wiring, heard, uow } = setup();
    const outbox = fakeOutbox();
    const reporting = wiring.reportingRefunds(outbox);
    const tx = transactionEntity({ amount: 1000 });
    uow.run(() => {
      reporting.refund(tx, { id: 're_1', amount: 400 } as Refund);
      reporting.refund(tx, { id: 're_2', amount: 1000 } as Refund);
      expect(heard.refunds).toEqual([]);
    });
    expect(outbox.queued.map((q) => q.id)).toEqual(['re_1', 're_2']);
    expect(heard.refunds).toEqual([
      ['acc_a', true],
      ['acc_a', false],
    ]);
    reporting.paymentOutcome(tx);
    expect(outbox.queued).toHaveLength(3);
  });

  describe('what descends from a request the report skips (the conformance kit’s)', () => {
    it('an outcome reached while such a request runs is not heard, and marks the transaction and its subscription', () => {
      const { wiring, heard, uow, marks, skipped } = setup();
      skipped.running = true;
      uow.run(() => wiring.onResolved(transactionEntity({ id: 'tx_kit', status: 'SUCCEEDED', subscription_id: 'sub_kit' })));
      skipped.running = false;
      expect(heard.outcomes).toEqual([]);
      expect([...marks]).toEqual(['acc_a tx_kit', 'acc_a sub_kit']);
    });

    it('a marked transaction’s later outcome, its refunds and its webhooks’ attempts are not heard', () => {
      const { wiring, heard, uow } = setup({ marked: ['tx_kit'], refunds: [{ id: 're_kit', transaction_id: 'tx_kit' }] });
      const tx = transactionEntity({ id: 'tx_kit', status: 'SUCCEEDED', amount: 1000 });
      const outbox = fakeOutbox();
      uow.run(() => {
        wiring.onResolved(tx);
        wiring.reportingRefunds(outbox).refund(tx, { id: 're_kit', amount: 400 } as Refund);
      });
      const payment = attempt({ resource_id: 'tx_kit', fault: 'bad_signature' });
      const refund = attempt({ kind: 'refund', resource_id: 're_kit' });
      expect([wiring.notTheMerchants(payment), wiring.notTheMerchants(refund)]).toEqual([true, true]);
      wiring.onAttempt(payment);
      wiring.onAttempt(refund);
      expect(heard).toEqual({ attempts: [], outcomes: [], refunds: [] });
      // The refund's webhook is still queued: only the report does not hear it.
      expect(outbox.queued.map((q) => q.id)).toEqual(['re_kit']);
    });

    it('a renewal of a marked subscription is not heard, and is marked itself (its webhooks with it)', () => {
      const subscription = { state: { first_charge_id: 'tx_first' } } as Subscription;
      const { wiring, heard, marks } = setup({ subscription, marked: ['sub_kit'] });
      wiring.onResolved(transactionEntity({ id: 'tx_renewal', status: 'FAILED', subscription_id: 'sub_kit' }));
      expect(heard.outcomes).toEqual([]);
      expect(marks.has('acc_a tx_renewal')).toBe(true);
    });

    it('while the merchant’s own payments, refunds and attempts are heard as before', () => {
      const { wiring, heard, uow, marks } = setup({ marked: ['tx_kit', 'sub_kit'] });
      const tx = transactionEntity({ id: 'tx_shop', status: 'SUCCEEDED', amount: 1000 });
      uow.run(() => {
        wiring.onResolved(tx);
        wiring.reportingRefunds(fakeOutbox()).refund(tx, { id: 're_shop', amount: 1000 } as Refund);
      });
      wiring.onAttempt(attempt({ resource_id: 'tx_shop' }));
      expect([heard.outcomes.length, heard.refunds.length, heard.attempts.length]).toEqual([1, 1, 1]);
      expect(marks.size).toBe(2);
    });
  });
});
