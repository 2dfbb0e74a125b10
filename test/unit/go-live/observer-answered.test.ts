/**
 * A create whose answer turned out to be lost after the go-live observer heard it: the observer
 * keeps nothing of a create until then, and hears it again from the request as it was heard.
 */
import { describe, expect, it } from 'vitest';
import { goLiveObserver } from '../../../src/features/go-live/request-observer.js';
import type { ObservedRequest } from '../../../src/features/go-live/go-live-observations.js';
import type { LoggedRequest } from '../../../src/core/http/request-log.js';

function keyedCreate(fingerprint: () => string): LoggedRequest {
  return {
    id: 7,
    method: 'POST',
    route: '/v4/transactions',
    params: {},
    path: '/v4/transactions',
    loggedPath: '/v4/transactions',
    header: (name) => (name === 'idempotency-key' ? 'key-1' : undefined),
    account: { id: 'acc_a', mode: 'direct' } as LoggedRequest['account'],
    status: 201,
    executedStatus: 201,
    retryAfterS: null,
    replayed: false,
    body: { amount: 1000, currency: 'USD', external_identifier: 'order-1' },
    bodyText: null,
    cardData: () => false,
    created: { id: 'tx_1', amount: 1000 },
    fault: false,
    answerDelivered: true,
    fingerprint,
    arrivedAtMs: 1_000,
    notTheMerchants: false,
  };
}

function observerWith() {
  const heard: ObservedRequest[] = [];
  const lost: ObservedRequest[] = [];
  const observer = goLiveObserver({
    accounts: { byId: () => undefined },
    transactions: { byId: () => undefined },
    goLive: { request: (r) => heard.push(r), undelivered: (r) => lost.push(r), notTheMerchants: () => undefined },
    clock: { nowMs: () => 1_000 },
  });
  return { observer, heard, lost };
}

describe('the go-live observer and a create whose answer may yet be lost', () => {
  it('hears a create lost after it was heard again, as it was heard, with its answer not delivered', () => {
    const { observer, heard, lost } = observerWith();
    const request = keyedCreate(() => 'fingerprint-1');
    observer.logged(request);
    expect(heard).toHaveLength(1);
    observer.undelivered?.(request);
    expect(lost).toHaveLength(1);
    const { answerDelivered, realMs: _lostAt, fingerprint: lostFingerprint, ...lostRest } = lost[0]!;
    const { realMs: _heardAt, fingerprint: heardFingerprint, ...heardRest } = heard[0]!;
    expect(answerDelivered).toBe(false);
    expect(heard[0]!.answerDelivered).toBe(true);
    expect({ ...lostRest, answerDelivered: true }).toEqual(heardRest);
    expect(lostFingerprint()).toBe(heardFingerprint());
    expect(lost[0]!.createdTransaction?.id).toBe('tx_1');
  });

  it('hears nothing more of a request that was heard lost, created nothing, or is not the merchant’s', () => {
    const { observer, lost } = observerWith();
    const heardLost = { ...keyedCreate(() => 'f'), answerDelivered: false };
    const refused = { ...keyedCreate(() => 'f'), status: 400, executedStatus: 400, created: null };
    const kits = { ...keyedCreate(() => 'f'), notTheMerchants: true };
    for (const request of [heardLost, refused, kits]) {
      observer.logged(request);
      observer.undelivered?.(request);
    }
    expect(lost).toEqual([]);
  });
});
