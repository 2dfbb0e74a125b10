/** The customer's step in one place: who waits for the customer, who shows a payment_url, and link expiry on a fake clock. */
import { describe, expect, it } from 'vitest';
import {
  awaitsCustomer,
  failedByExpiredLink,
  hasPaymentUrl,
  linkExpiredWhilePending,
} from '../../../src/features/payment-methods/customer-step.js';
import type { Account } from '../../../src/features/accounts/entities.js';
import { createTransactionService } from '../../../src/features/transactions/transactions.js';
import {
  fakeClock,
  fakeFeed,
  fakeOutbox,
  fakePolicy,
  fakeScheduledSteps,
  fakeTransactions,
  fakeUnitOfWork,
  transactionEntity,
} from '../../support/fakes.js';

const DAY_MS = 86_400_000;
const checkout: Account = {
  id: 'acc_c',
  name: 'checkout',
  mode: 'checkout',
  api_key: 'sk_test_c',
  jwt_kid: 'c',
  jwt_private_key_pem: '',
  jwt_public_key_pem: '',
  created_at: 0,
};

function service() {
  const clock = fakeClock();
  const uow = fakeUnitOfWork();
  const transactions = fakeTransactions();
  const outbox = fakeOutbox();
  const txs = createTransactionService({
    clock,
    uow,
    transactions,
    scheduledSteps: fakeScheduledSteps(),
    outbox,
    feed: fakeFeed(uow),
    policy: fakePolicy(),
  });
  return { txs, clock, transactions, outbox };
}

describe("the customer's step", () => {
  it('a payment waits for the customer in checkout mode, and in direct mode only for a QR, wallet or banking-app channel', () => {
    expect(awaitsCustomer('checkout', null)).toBe(true);
    expect(awaitsCustomer('checkout', 'CARD')).toBe(true);
    expect(awaitsCustomer('direct', 'PROMPTPAY')).toBe(true);
    expect(awaitsCustomer('direct', 'CARD')).toBe(false);
    expect(awaitsCustomer('direct', undefined)).toBe(false);
  });

  it('payment_url: every checkout payment, and a direct one only with a payment link', () => {
    expect(hasPaymentUrl(transactionEntity(), 'checkout')).toBe(true);
    expect(hasPaymentUrl(transactionEntity(), 'direct')).toBe(false);
    expect(hasPaymentUrl(transactionEntity({ link_expires_at: 1 }), 'direct')).toBe(true);
  });

  it('a link expires 24 h of sandbox clock after creation, and only a PENDING payment can expire', () => {
    const tx = transactionEntity({ created_at: 0 });
    expect(linkExpiredWhilePending(tx, DAY_MS - 1)).toBe(false);
    expect(linkExpiredWhilePending(tx, DAY_MS)).toBe(true);
    expect(linkExpiredWhilePending({ ...tx, status: 'SUCCEEDED' }, DAY_MS)).toBe(false);
    expect(failedByExpiredLink({ ...tx, status: 'FAILED', resolved_at: DAY_MS })).toBe(true);
    expect(failedByExpiredLink({ ...tx, status: 'FAILED', resolved_at: DAY_MS - 1 })).toBe(false);
  });

  it('expireLinkIfDue: before the expiry nothing changes; at it the payment becomes FAILED with its webhook, once', () => {
    const { txs, clock, outbox } = service();
    const tx = txs.create(checkout, { amount: 1000, currency: 'USD' });
    expect(tx.link_expires_at).toBe(clock.nowMs() + DAY_MS);
    expect(txs.expireLinkIfDue(tx.id).status).toBe('PENDING');
    expect(outbox.queued).toEqual([]);
    clock.set(tx.created_at + DAY_MS);
    expect(txs.expireLinkIfDue(tx.id).status).toBe('FAILED');
    expect(txs.expireLinkIfDue(tx.id).status).toBe('FAILED');
    expect(outbox.queued).toEqual([{ kind: 'payment', id: tx.id, status: 'FAILED', simulated: undefined }]);
  });

  it('expireLinkIfDue answers a payment that already has its outcome as it is, and 404 for an unknown id', () => {
    const { txs, clock } = service();
    const tx = txs.create(checkout, { amount: 1000, currency: 'USD' });
    txs.resolve(tx.id, 'SUCCEEDED');
    clock.set(tx.created_at + 2 * DAY_MS);
    expect(txs.expireLinkIfDue(tx.id).status).toBe('SUCCEEDED');
    expect(() => txs.expireLinkIfDue('nope')).toThrow(expect.objectContaining({ status: 404 }));
  });

  it('the clock sweep (linkExpiry) expires through the same decision', async () => {
    const { txs, clock, transactions } = service();
    const tx = txs.create(checkout, { amount: 1000, currency: 'USD' });
    expect(txs.linkExpiry.nextDueMs()).toBe(tx.created_at + DAY_MS);
    clock.set(tx.created_at + DAY_MS);
    await txs.linkExpiry.runDue(clock.nowMs(), false);
    expect(transactions.byIdAnyAccount(tx.id)!.status).toBe('FAILED');
    expect(txs.linkExpiry.nextDueMs()).toBe(null);
  });
});
