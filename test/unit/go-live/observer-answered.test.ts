/**
 * What the go-live observer keeps of a create until its answer is known to have arrived: an
 * observation that holds no closure over the request (its fingerprint already made), so that
 * keeping it does not keep the request's objects alive.
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

describe('the go-live observer and a create whose answer may yet be lost', () => {
  it('keeps the observation with its fingerprint made, not the request’s closure', () => {
    const heard: ObservedRequest[] = [];
    const lost: ObservedRequest[] = [];
    const observer = goLiveObserver({
      accounts: { byId: () => undefined },
      transactions: { byId: () => undefined },
      goLive: { request: (r) => heard.push(r), undelivered: (r) => lost.push(r), notTheMerchants: () => undefined },
      clock: { nowMs: () => 1_000 },
    });
    let open = true;
    const request = keyedCreate(() => {
      if (!open) throw new Error('the request was asked after it was logged');
      return 'fingerprint-1';
    });
    observer.logged(request);
    expect(heard).toHaveLength(1);
    open = false;
    observer.undelivered?.(request);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.answerDelivered).toBe(false);
    expect(lost[0]!.createdTransaction?.id).toBe('tx_1');
    expect(lost[0]!.fingerprint()).toBe('fingerprint-1');
  });
});
