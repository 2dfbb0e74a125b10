/**
 * The subscription state machine with fakes of its ports (no SQLite, HTTP or socket): the
 * first charge, renewals on the clock, past_due retries to cancellation, trials, cancellation
 * by request, and a first charge that waits for the customer.
 */
import { describe, expect, it } from 'vitest';
import type { Account } from '../../../src/features/accounts/entities.js';
import type { AccountMode } from '../../../src/core/auth/account.js';
import type { SubscriptionDraft } from '../../../src/features/subscriptions/entities.js';
import type { TransactionOutcome } from '../../../src/features/transactions/entities.js';
import type { ChargeScript, ScenarioPolicy } from '../../../src/features/scenarios/vocabulary.js';
import { RENEWAL_RETRY_SECONDS, createSubscriptionService } from '../../../src/features/subscriptions/subscriptions.js';
import { createTransactionService } from '../../../src/features/transactions/transactions.js';
import {
  fakeAccounts,
  fakeClock,
  fakeFeed,
  fakeOutbox,
  fakePolicy,
  fakeScheduledSteps,
  fakeSubscriptions,
  fakeTransactions,
  fakeUnitOfWork,
} from '../../support/fakes.js';

const DAY_MS = 86_400_000;

const accountOf = (mode: AccountMode): Account => ({
  id: `acc_${mode}`,
  name: mode,
  mode,
  api_key: `sk_test_${mode}`,
  jwt_kid: mode,
  jwt_private_key_pem: '',
  jwt_public_key_pem: '',
  created_at: 0,
});
const direct = accountOf('direct');
const checkout = accountOf('checkout');

const request = (overrides: Partial<SubscriptionDraft> = {}, plan: Partial<SubscriptionDraft['plan']> = {}): SubscriptionDraft => ({
  external_identifier: 'sub-1',
  amount: 1000,
  currency: 'USD',
  customer: { email_address: 'ada@example.com' },
  plan: { name: 'Monthly', amount: 1000, currency: 'USD', interval: 'month', interval_time: 1, payment_attempts: 3, ...plan },
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/40', security_code: '123' },
  ...overrides,
});

/** Renewals decided by `renewals` in order (then SUCCEEDED); the first charge always SUCCEEDED. */
function policyOf(renewals: TransactionOutcome[] = []): ScenarioPolicy {
  const charge = (outcome: TransactionOutcome): ChargeScript => ({ outcome, afterSeconds: 0, refunds: [] });
  return { ...fakePolicy(), renewalScript: (_rule, _period, attemptsBefore) => charge(renewals[attemptsBefore] ?? 'SUCCEEDED') };
}

function service(renewals: TransactionOutcome[] = []) {
  const clock = fakeClock();
  const uow = fakeUnitOfWork();
  const transactions = fakeTransactions();
  const subscriptions = fakeSubscriptions();
  const feed = fakeFeed(uow);
  const policy = policyOf(renewals);
  const transactionService = createTransactionService({
    clock,
    uow,
    transactions,
    scheduledSteps: fakeScheduledSteps(),
    outbox: fakeOutbox(),
    feed,
    policy,
  });
  const chargeErrors: unknown[] = [];
  const subs = createSubscriptionService({
    clock,
    uow,
    accounts: fakeAccounts(direct, checkout),
    subscriptions,
    transactionService,
    policy,
    feed,
    startPageUrl: () => 'http://sandbox.test/',
    onChargeError: (_id, err) => chargeErrors.push(err),
  });
  /** Moves the clock to the subscription's next charge and runs the billing that falls due. */
  const bill = (id: string) => {
    const due = subscriptions.byIdAnyAccount(id)!.next_charge_at!;
    clock.set(due);
    void subs.billing.runDue(due, false);
    return subscriptions.byIdAnyAccount(id)!;
  };
  const charges = (id: string) => transactions.rows.filter((t) => t.subscription_id === id);
  return { subs, clock, transactions, subscriptions, transactionService, bill, charges, chargeErrors, feed };
}

describe('subscription state machine', () => {
  it('charges the first period at creation: active, the card masked on file, the next charge at the end of the period', () => {
    const { subs, clock, charges, transactions } = service();
    const sub = subs.create(direct, request());
    expect(sub.status).toBe('active');
    expect(charges(sub.id).map((t) => [t.status, t.amount])).toEqual([['SUCCEEDED', 1000]]);
    expect(sub.state.payment_method_on_file).toMatchObject({ type: 'card', card: { last4: '1111' } });
    expect(JSON.stringify(sub.request)).not.toContain('4111111111111111');
    expect(JSON.stringify(transactions.rows)).not.toContain('4111111111111111');
    expect(sub.next_charge_at).toBe(Date.UTC(2026, 11, 22, 10)); // a month after 2026-11-22 10:00
    expect(sub.next_charge_at! - clock.nowMs()).toBeGreaterThan(27 * DAY_MS);
  });

  it('a second subscription with the same external_identifier is 409 duplicate_record naming the first', () => {
    const { subs } = service();
    const first = subs.create(direct, request());
    expect(() => subs.create(direct, request())).toThrow(expect.objectContaining({ status: 409, code: 'duplicate_record' }));
    expect(subs.create(checkout, request()).id).not.toBe(first.id); // another account may reuse it
  });

  it('renews on the clock: each renewal charges plan.amount and moves the next charge one period on', () => {
    const { subs, bill, charges } = service();
    const sub = subs.create(direct, request({ amount: 500 }, { amount: 1200 }));
    const first = bill(sub.id);
    expect(first.status).toBe('active');
    expect(first.state.period).toBe(1);
    const second = bill(sub.id);
    expect(second.state.period).toBe(2);
    expect(charges(sub.id).map((t) => [t.status, t.amount])).toEqual([
      ['SUCCEEDED', 500],
      ['SUCCEEDED', 1200],
      ['SUCCEEDED', 1200],
    ]);
    expect(second.next_charge_at).toBe(Date.UTC(2027, 1, 22, 10));
  });

  it('a failed renewal is past_due and retried a day later; a paid retry makes it active again', () => {
    const { subs, bill, clock } = service(['FAILED']);
    const sub = subs.create(direct, request());
    const pastDue = bill(sub.id);
    expect(pastDue.status).toBe('past_due');
    expect(pastDue.state.failed_attempts).toBe(1);
    expect(pastDue.next_charge_at).toBe(clock.nowMs() + RENEWAL_RETRY_SECONDS * 1000);
    const recovered = bill(sub.id);
    expect(recovered.status).toBe('active');
    expect(recovered.state).toMatchObject({ period: 1, failed_attempts: 0 });
  });

  it('after plan.payment_attempts failed attempts of one renewal it is cancelled (payment_attempts) and charges no more', () => {
    const { subs, bill, charges, subscriptions } = service(['FAILED', 'FAILED', 'FAILED']);
    const sub = subs.create(direct, request());
    expect(bill(sub.id).status).toBe('past_due');
    expect(bill(sub.id).status).toBe('past_due');
    const cancelled = bill(sub.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.state.cancellation_reason).toBe('payment_attempts');
    expect(cancelled.next_charge_at).toBeNull();
    expect(subscriptions.nextDue()).toBeNull();
    expect(charges(sub.id).map((t) => t.status)).toEqual(['SUCCEEDED', 'FAILED', 'FAILED', 'FAILED']);
  });

  it('a trial charges nothing at creation; the first period is charged when the trial ends', () => {
    const { subs, bill, charges, clock } = service();
    const sub = subs.create(direct, request({}, { trial_period_days: 7 }));
    expect(sub.status).toBe('active');
    expect(charges(sub.id)).toEqual([]);
    expect(sub.next_charge_at).toBe(clock.nowMs() + 7 * DAY_MS);
    const charged = bill(sub.id);
    expect(charged.state.period).toBe(0);
    expect(charges(sub.id).map((t) => [t.status, t.amount])).toEqual([['SUCCEEDED', 1000]]);
  });

  it('cancel stops charging; cancelling again, or a failed subscription, is 409 invalid_state', () => {
    const { subs, subscriptions } = service();
    const sub = subs.create(direct, request());
    const cancelled = subs.cancel(sub.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.state.cancellation_reason).toBe('requested');
    expect(subscriptions.nextDue()).toBeNull();
    expect(() => subs.cancel(sub.id)).toThrow(expect.objectContaining({ status: 409, code: 'invalid_state' }));
  });

  it('cancel of a subscription that does not exist is 404 not_found, decided by the domain (no caller looks it up first)', () => {
    const { subs } = service();
    expect(() => subs.cancel('00000000-0000-4000-8000-000000000000')).toThrow(
      expect.objectContaining({ status: 404, code: 'not_found', message: 'Subscription 00000000-0000-4000-8000-000000000000 not found' }),
    );
  });

  it('in checkout mode the first charge waits for the customer: paid makes it active, a decline makes it failed', () => {
    const { subs, transactionService, subscriptions, charges } = service();
    const paid = subs.create(checkout, request({ external_identifier: 'paid' }));
    const waiting = charges(paid.id)[0]!;
    expect(waiting.status).toBe('PENDING');
    expect(paid.state.pending_charge_id).toBe(waiting.id);
    expect(paid.next_charge_at).toBeNull();
    transactionService.resolve(waiting.id, 'SUCCEEDED');
    expect(subscriptions.byIdAnyAccount(paid.id)).toMatchObject({ status: 'active', state: { pending_charge_id: null, period: 0 } });

    const declined = subs.create(checkout, request({ external_identifier: 'declined' }));
    transactionService.resolve(charges(declined.id)[0]!.id, 'FAILED');
    const failed = subscriptions.byIdAnyAccount(declined.id)!;
    expect(failed.status).toBe('failed');
    expect(failed.next_charge_at).toBeNull();
    expect(() => subs.cancel(declined.id)).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });

  it('a free first period is recorded as paid without a transaction', () => {
    const { subs, charges } = service();
    const sub = subs.create(direct, request({ amount: 0 }));
    expect(sub.status).toBe('active');
    expect(sub.state.period).toBe(0);
    expect(charges(sub.id)).toEqual([]);
  });

  it("a checkout trial whose customer never gave a method: the first charge at the trial's end is declined (no_payment_method) and it is failed", () => {
    const { subs, bill, charges } = service();
    const sub = subs.create(checkout, request({ payment_method: { type: 'card' } }, { trial_period_days: 7 }));
    expect(charges(sub.id)).toEqual([]);
    const ended = bill(sub.id);
    expect(charges(sub.id).map((t) => [t.status, t.decline_reason])).toEqual([['FAILED', 'no_payment_method']]);
    expect(ended.status).toBe('failed');
    expect(ended.next_charge_at).toBeNull();
  });

  it('a checkout trial: the card registered on its page goes on file and the charge at the end of the trial uses it', () => {
    const { subs, bill, charges } = service();
    const sub = subs.create(checkout, request({ payment_method: { type: 'card' } }, { trial_period_days: 7 }));
    const registered = subs.registerPaymentMethod(sub.id, { card: { number: '5555555555554444', expiration_date: '12/40' } });
    expect(registered.state.payment_method_on_file).toMatchObject({ type: 'card', card: { last4: '4444' } });
    expect(charges(sub.id)).toEqual([]);
    const charged = bill(sub.id);
    expect(charged.status).toBe('active');
    expect(charges(sub.id).map((t) => [t.status, t.payment_method?.card?.last4])).toEqual([['SUCCEEDED', '4444']]);
    expect(() => subs.registerPaymentMethod(sub.id, { card: { number: '4111111111111111', expiration_date: '12/40' } })).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
  });

  it('a first charge waiting for the customer fails when its link expires (24 h of sandbox clock): the subscription is failed', async () => {
    const { subs, transactionService, subscriptions, charges, clock } = service();
    const sub = subs.create(checkout, request({ payment_method: { type: 'card' } }));
    const waiting = charges(sub.id)[0]!;
    expect(waiting.link_expires_at).toBe(clock.nowMs() + DAY_MS);
    clock.set(waiting.link_expires_at!);
    await transactionService.linkExpiry.runDue(clock.nowMs(), false);
    expect(charges(sub.id).map((t) => t.status)).toEqual(['FAILED']);
    expect(subscriptions.byIdAnyAccount(sub.id)!.status).toBe('failed');
  });

  it('renewals never wait for the customer: a checkout renewal is charged off-session, with no payment link', () => {
    const { subs, transactionService, bill, charges } = service();
    const sub = subs.create(checkout, request({ payment_method: { type: 'card' } }));
    transactionService.resolve(charges(sub.id)[0]!.id, 'SUCCEEDED');
    const renewed = bill(sub.id);
    expect(renewed.state.period).toBe(1);
    const renewal = charges(sub.id)[1]!;
    expect(renewal.status).toBe('SUCCEEDED');
    expect(renewal.link_expires_at).toBeNull();
  });
});
