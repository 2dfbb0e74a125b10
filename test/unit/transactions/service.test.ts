/** The transaction service with fakes of its ports: state rules, the outbox, the feed after commit, scripts. */
import { describe, expect, it } from 'vitest';
import type { Account } from '../../../src/features/accounts/entities.js';
import { SandboxError } from '../../../src/core/domain/errors.js';
import type { ChargeScript, MatchInput } from '../../../src/features/scenarios/vocabulary.js';
import { createTransactionService } from '../../../src/features/transactions/transactions.js';
import { transactionMatchInput } from '../../../src/features/transactions/transaction-input.js';
import { fakeClock, fakeFeed, fakeOutbox, fakePolicy, fakeScheduledSteps, fakeTransactions, fakeUnitOfWork } from '../../support/fakes.js';

const account: Account = {
  id: 'acc_1',
  name: 'direct',
  mode: 'direct',
  api_key: 'sk_test_x',
  jwt_kid: 'kid',
  jwt_private_key_pem: '',
  jwt_public_key_pem: '',
  created_at: 0,
};

const card = { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' };
const payment = { amount: 1000, currency: 'USD', payment_method: card, browser_info: { user_agent: 'x' } };

function service(script: ChargeScript | null = null) {
  const clock = fakeClock();
  const uow = fakeUnitOfWork();
  const transactions = fakeTransactions();
  const scheduledSteps = fakeScheduledSteps();
  const outbox = fakeOutbox();
  const feed = fakeFeed(uow);
  const txs = createTransactionService({
    clock,
    uow,
    transactions,
    scheduledSteps,
    outbox,
    feed,
    policy: fakePolicy(script, { count: 2, status: 502 }),
  });
  return { txs, clock, transactions, scheduledSteps, outbox, feed };
}

describe('transaction service', () => {
  it('creates a PENDING transaction with a masked card and tells the feed after the work', () => {
    const { txs, transactions, feed, outbox } = service();
    const tx = txs.create(account, payment);
    expect(tx.status).toBe('PENDING');
    expect(tx.payment_method).toEqual({ type: 'card', card: { last4: '1111', expiration_date: '12/30', brand: 'visa' } });
    expect(JSON.stringify(transactions.rows)).not.toContain('4111111111111111');
    expect(feed.published.map((e) => e.type)).toEqual(['transaction.created']);
    expect(outbox.queued).toEqual([]);
  });

  it('an outcome is final: a second one is 409 invalid_state and queues nothing', () => {
    const { txs, outbox } = service();
    const tx = txs.create(account, payment);
    txs.resolve(tx.id, 'SUCCEEDED');
    expect(() => txs.resolve(tx.id, 'FAILED')).toThrow(expect.objectContaining({ status: 409, code: 'invalid_state' }));
    expect(outbox.queued.map((w) => w.status)).toEqual(['SUCCEEDED']);
  });

  it('plays a rule at create time: outcome at once, created before updated on the feed, the rule recorded', () => {
    const { txs, feed, outbox } = service({ outcome: 'FAILED', afterSeconds: 0, refunds: [] });
    const tx = txs.create(account, payment);
    expect(tx.status).toBe('FAILED');
    expect(tx.scenario_rule).toBe('fake/rule');
    expect(feed.published.map((e) => e.type)).toEqual(['transaction.created', 'transaction.updated']);
    // The rule's webhook failures travel with its outcome.
    expect(outbox.queued).toEqual([{ kind: 'payment', id: tx.id, status: 'FAILED', simulated: { count: 2, status: 502 } }]);
  });

  it('a delayed outcome and its refund wait as scheduled steps', () => {
    const { txs, scheduledSteps, clock } = service({
      outcome: 'SUCCEEDED',
      afterSeconds: 60,
      refunds: [{ amount: 100, afterSeconds: 30 }],
    });
    const tx = txs.create(account, payment);
    expect(tx.status).toBe('PENDING');
    expect(scheduledSteps.steps.map((s) => [s.action.kind, s.due_at - clock.nowMs()])).toEqual([
      ['outcome', 60_000],
      ['refund', 90_000],
    ]);
  });

  it("refunds add up to the amount and no further; a rule's webhook failures hold for refunds by hand", () => {
    const { txs, outbox, transactions } = service();
    const tx = txs.create(account, payment);
    expect(() => txs.refund(tx.id, {})).toThrow(SandboxError); // PENDING
    txs.resolve(tx.id, 'SUCCEEDED');
    txs.refund(tx.id, { amount: 400 });
    expect(() => txs.refund(tx.id, { amount: 601 })).toThrow(expect.objectContaining({ status: 400 }));
    const rest = txs.refund(tx.id, {});
    expect(rest.amount).toBe(600);
    expect(transactions.byIdAnyAccount(tx.id)!.refunded_amount).toBe(1000);
    expect(() => txs.refund(tx.id, {})).toThrow(/fully refunded/);
    expect(outbox.queued.filter((w) => w.kind === 'refund')).toHaveLength(2);
  });

  it('a create decided at once is stored once in its final state, its webhook queued from the row in hand, no savepoint', () => {
    const uow = fakeUnitOfWork();
    const transactions = fakeTransactions();
    const calls: string[] = [];
    const counted = new Proxy(transactions, {
      get: (target, name) => {
        const value = Reflect.get(target, name);
        return typeof value === 'function' ? (...args: unknown[]) => (calls.push(String(name)), value(...args)) : value;
      },
    });
    const queued = fakeOutbox();
    const depths: number[] = [];
    const outbox = {
      ...queued,
      paymentOutcome: (...args: Parameters<typeof queued.paymentOutcome>) => (depths.push(uow.depth()), queued.paymentOutcome(...args)),
    };
    const feed = fakeFeed(uow);
    const txs = createTransactionService({
      clock: fakeClock(),
      uow,
      transactions: counted,
      scheduledSteps: fakeScheduledSteps(),
      outbox,
      feed,
      policy: fakePolicy({ outcome: 'SUCCEEDED', afterSeconds: 0, refunds: [] }),
    });
    const heard: string[] = [];
    txs.onResolved((tx) => heard.push(tx.status));
    // Inside the request's unit of work, as the idempotent create runs it.
    const tx = uow.run(() => txs.create(account, payment));
    expect(calls).toEqual(['insert']);
    expect(depths).toEqual([1]);
    expect(tx).toEqual(transactions.rows[0]);
    expect(tx).toMatchObject({ status: 'SUCCEEDED', scenario_rule: 'fake/rule', seq: 1 });
    expect(tx.resolved_at).toBe(tx.updated_at);
    expect(queued.queued).toEqual([{ kind: 'payment', id: tx.id, status: 'SUCCEEDED', simulated: undefined }]);
    expect(feed.published.map((e) => e.type)).toEqual(['transaction.created', 'transaction.updated']);
    expect(heard).toEqual(['SUCCEEDED']);
  });

  it('tells its listeners of every outcome inside the work (subscription billing)', () => {
    const { txs } = service();
    const heard: string[] = [];
    txs.onResolved((tx) => heard.push(`${tx.id}:${tx.status}`));
    const tx = txs.create(account, payment);
    txs.resolve(tx.id, 'FAILED');
    expect(heard).toEqual([`${tx.id}:FAILED`]);
  });
});

describe("transaction service: the customer's step and card expiry", () => {
  const wallet = { ...payment, currency: 'THB', payment_method: { type: 'wallet', payment_channel_code: 'TRUEMONEY' } };

  it('a customer-step payment gets a link expiring 24 h later; linkExpiry fails it then, with its webhook, and nothing before', async () => {
    const { txs, clock, outbox } = service();
    const tx = txs.create(account, wallet);
    const expires = clock.nowMs() + 24 * 3600 * 1000;
    expect(tx.link_expires_at).toBe(expires);
    expect(txs.linkExpiry.nextDueMs()).toBe(expires);
    await txs.linkExpiry.runDue(expires - 1, true);
    expect(outbox.queued).toEqual([]);
    await txs.linkExpiry.runDue(expires, true);
    expect(outbox.queued.map((w) => [w.id, w.status])).toEqual([[tx.id, 'FAILED']]);
    expect(txs.linkExpiry.nextDueMs()).toBeNull();
  });

  it('a direct card needs no step (no link); checkout keeps only the channel, never card data', () => {
    const { txs } = service();
    expect(txs.create(account, payment).link_expires_at).toBeNull();
    const checkout = txs.create(
      { ...account, mode: 'checkout' },
      { ...wallet, payment_method: { type: 'qr', payment_channel_code: 'PROMPTPAY' } },
    );
    expect(checkout.link_expires_at).not.toBeNull();
    expect(checkout.payment_method).toMatchObject({
      type: 'qr',
      payment_channel_code: 'PROMPTPAY',
      qr_payload: expect.stringMatching(/^000201/),
    });
  });

  it('an expired card is created FAILED with decline_reason expired_card, before any scenario rule', () => {
    const { txs, outbox } = service({ outcome: 'SUCCEEDED', afterSeconds: 0, refunds: [] });
    const tx = txs.create(account, { ...payment, payment_method: { ...card, expiration_date: '10/26' } });
    expect(tx).toMatchObject({ status: 'FAILED', decline_reason: 'expired_card', scenario_rule: null, link_expires_at: null });
    expect(outbox.queued.map((w) => w.status)).toEqual(['FAILED']);
    // The clock's own month is still good (2026-11).
    expect(txs.create(account, { ...payment, payment_method: { ...card, expiration_date: '11/26' } }).decline_reason).toBeNull();
  });
});

describe('the scenario match input is built once', () => {
  it('create asks the rules with the match input the caller built (the API built it for its api_fault check), else builds it', () => {
    const seen: MatchInput[] = [];
    const uow = fakeUnitOfWork();
    const policy = { ...fakePolicy(), forTransaction: (input: MatchInput) => (seen.push(input), null) };
    const txs = createTransactionService({
      clock: fakeClock(),
      uow,
      transactions: fakeTransactions(),
      scheduledSteps: fakeScheduledSteps(),
      outbox: fakeOutbox(),
      feed: fakeFeed(uow),
      policy,
    });
    const match = transactionMatchInput(payment);
    txs.create(account, payment, { match });
    expect(seen[0]).toBe(match);
    txs.create(account, payment);
    expect(seen[1]).toEqual(match);
  });
});
