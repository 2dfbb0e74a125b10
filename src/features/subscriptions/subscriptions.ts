/**
 * The subscription life cycle. A subscription is
 * charged for its first period at creation, or when its trial ends; each charge is a
 * transaction (the transaction service's `create` with the subscription's id, its payment
 * webhook going to `payment_method.webhooks_url`) whose outcome the sandbox sets on its own:
 * SUCCEEDED unless the scenario rule matched at creation says otherwise. What an outcome
 * does to the subscription is decided in one place, `onChargeResolved` (told of every
 * outcome, so one set by hand or on the payment page counts the same):
 *
 * - first charge SUCCEEDED → `active`; FAILED → `failed` (terminal, no retry);
 * - renewal SUCCEEDED → `active`, the next renewal due at the end of the period;
 * - renewal FAILED → `past_due`, retried every `RENEWAL_RETRY_SECONDS` on the sandbox clock
 *   until `plan.payment_attempts` attempts of that renewal have failed → `cancelled`.
 *
 * Renewals run on the sandbox clock as a `TimedWork` (`billing`), so one clock advance runs
 * every renewal that falls due, in time order, each with its webhook.
 *
 * The customer's step: a first charge
 * in checkout mode, or with a QR, wallet or banking-app channel, waits for the customer on
 * its payment page (`payment_url_link`) unless a scenario rule scripts it; paid → `active`,
 * cancelled or expired (24 h) → `failed`. A direct-mode card subscription without card fields
 * puts the default test card on file (Visa 4242, two years ahead); that card triggers no
 * scenario rule, so the customer's e-mail or the amount decides, while a card the request
 * names is matched as in a payment (in the default scenario a magic card beats them). Renewals always charge the
 * method on file without the customer; a card on file that has expired declines the renewal
 * (`expired_card`), which runs the usual `past_due` retries to `cancelled`.
 *
 * With a trial, such a subscription's payment page is the
 * subscription's own (`/pay/{subscription_id}`, present from creation): it collects the
 * payment method without charging (`registerPaymentMethod`). When the trial ends, the first
 * charge is made off-session with that method; if the customer never completed the page, it
 * is declined at once (`no_payment_method`, FAILED with its webhook) and the subscription is
 * `failed`. Once the customer has paid or registered a card on the page, that card (masked)
 * is the method on file: `payment_method.card` and every later charge show it.
 */
import { randomUUID } from 'node:crypto';
import { nthPeriod } from './billing-schedule.js';
import type { Clock } from '../../core/clock/clock.js';
import { isCardExpired } from '../payment-methods/index.js';
import { awaitsCustomer } from '../payment-methods/index.js';
import type { AccountDirectory, AccountIdentity } from '../../core/auth/account.js';
import type { Subscription, SubscriptionDraft, SubscriptionState, SubscriptionStatus } from './entities.js';
import type { Transaction, TransactionService } from '../transactions/index.js';
import { badRequest, duplicateRecord, invalidState, notFound } from '../../core/domain/errors.js';
import type { ChangeFeed, UnitOfWork } from '../../core/domain/ports.js';
import type { SubscriptionsRepo } from './ports.js';
import type { ChargeScript, MatchInput, ScenarioPolicy } from '../scenarios/index.js';
import type { TimedWork } from '../../core/clock/timed-work.js';
import { scheduleOf } from './subscription-calendar.js';
import {
  chargeInput,
  collectsMethodDuringTrial,
  estimatedCharges,
  methodOnFile,
  onFile,
  subscriptionActions,
  subscriptionMatchInput,
  type RegisteredMethod,
} from './subscription-terms.js';
import { storedPaymentMethod } from '../transactions/index.js';

/** Most subscriptions one step of a clock advance charges; the rest due then run in the next steps. */
const BILLING_BATCH = 20;

/** Spacing of the retries of a failed renewal, on the sandbox clock: one day. */
export const RENEWAL_RETRY_SECONDS = 86_400;

export interface SubscriptionServiceDeps {
  clock: Clock;
  uow: UnitOfWork;
  accounts: AccountDirectory;
  subscriptions: SubscriptionsRepo;
  transactionService: TransactionService;
  policy: ScenarioPolicy;
  feed: ChangeFeed;
  /** Where a checkout charge's payment page sends the customer when the request names no redirect_url. */
  startPageUrl: () => string;
  /** Hears of a charge that could not start (the subscription then stops charging). */
  onChargeError: (subscriptionId: string, err: unknown) => void;
}

export interface SubscriptionService {
  /**
   * Creates a subscription (status `active`) and, without a trial, charges its first period
   * at once, so the answer already shows the outcome (`failed` when it was declined).
   * 409 `duplicate_record` with `resource_id` when the account already has a subscription
   * with this `external_identifier`. `match` is what the scenario rules see of it
   * (`subscriptionMatchInput(request)`, which the caller may have built already for its own
   * check, e.g. the API's `api_fault` steps).
   */
  create(account: AccountIdentity, request: SubscriptionDraft, match?: MatchInput): Subscription;
  /**
   * Cancels a subscription now: no further charges (a charge already waiting for its outcome
   * still gets it). 409 `invalid_state` when it is already `cancelled` or `failed`.
   */
  cancel(id: string): Subscription;
  /**
   * The customer completes the payment page of a trial subscription: the card (masked) or the
   * channel's authorisation goes on file and nothing is charged; the first charge at the end
   * of the trial uses it. 400 for an expired card; 409 `invalid_state` once the trial is over
   * or the subscription no longer charges.
   */
  registerPaymentMethod(id: string, method: RegisteredMethod): Subscription;
  /** Runs the charges that fall due (trial ends, renewals, retries) on the sandbox clock. */
  billing: TimedWork;
}

export function createSubscriptionService(deps: SubscriptionServiceDeps): SubscriptionService {
  const { clock, uow, accounts, subscriptions, transactionService, policy, feed } = deps;

  const save = (sub: Subscription, status: SubscriptionStatus, state: SubscriptionState, nextChargeAt: number | null): void => {
    subscriptions.update(sub.id, { status, state, next_charge_at: nextChargeAt, updated_at: clock.nowMs() });
    // Several changes in one unit of work give one event, with the committed status.
    uow.afterCommit(() => {
      const saved = subscriptions.byIdAnyAccount(sub.id);
      if (saved) feed.emit('subscription.updated', saved.account_id, { id: saved.id, status: saved.status });
    }, `subscription.updated:${sub.id}`);
  };

  /** Applies the outcome of the charge of `state.period` to the subscription. */
  const settle = (sub: Subscription, state: SubscriptionState, outcome: Transaction['status']): void => {
    const next: SubscriptionState = { ...state, pending_charge_id: null };
    if (sub.status === 'cancelled' || sub.status === 'failed') {
      save(sub, sub.status, next, null);
      return;
    }
    const now = clock.nowMs();
    if (outcome === 'SUCCEEDED') {
      next.failed_attempts = 0;
      save(sub, 'active', next, nthPeriod(scheduleOf(sub), state.period).end.getTime());
    } else if (state.period === 0) {
      save(sub, 'failed', next, null);
    } else {
      next.failed_attempts = state.failed_attempts + 1;
      if (next.failed_attempts >= sub.request.plan.payment_attempts) {
        next.cancelled_at = now;
        next.cancellation_reason = 'payment_attempts';
        save(sub, 'cancelled', next, null);
      } else {
        save(sub, 'past_due', next, now + RENEWAL_RETRY_SECONDS * 1000);
      }
    }
  };

  /**
   * Starts the charge that is due for a subscription: the first period, the next renewal, or
   * (when `past_due`) another attempt of the failed renewal. A charge of 0 (a free plan) is
   * recorded as paid without a transaction.
   */
  const startCharge = (subscriptionId: string): void =>
    uow.run(() => {
      const sub = subscriptions.byIdAnyAccount(subscriptionId);
      if (!sub || (sub.status !== 'active' && sub.status !== 'past_due')) return;
      const { state } = sub;
      if (state.pending_charge_id !== null) return;
      const retry = sub.status === 'past_due';
      const period = retry ? state.period : state.period + 1;
      const attempt = retry ? state.failed_attempts + 1 : 1;
      const script: ChargeScript =
        period === 0 ? policy.firstChargeScript(state.rule) : policy.renewalScript(state.rule, period, state.renewal_attempts);
      const next: SubscriptionState = { ...state, period, renewal_attempts: state.renewal_attempts + (period > 0 ? 1 : 0) };
      const account = accounts.byId(sub.account_id)!;
      const input = chargeInput(account, sub.request, period, attempt, deps.startPageUrl);
      if (input.amount === 0) {
        settle(sub, next, 'SUCCEEDED');
        return;
      }
      // A first charge that needs the customer waits for them, unless a scenario rule scripts it;
      // after a trial the customer's page came earlier: the method they gave is charged, and
      // without one the charge is declined.
      const afterTrial = period === 0 && collectsMethodDuringTrial(account.mode, sub);
      const awaitCustomer =
        period === 0 && !afterTrial && state.rule === null && awaitsCustomer(account.mode, sub.request.payment_method.payment_channel_code);
      const tx = transactionService.create(account, input, {
        subscriptionId: sub.id,
        notificationUrl: sub.request.payment_method.webhooks_url,
        paymentMethodOnFile: state.payment_method_on_file,
        awaitCustomer,
        ...(afterTrial && (state.payment_method_registered_at ?? null) === null ? { declineReason: 'no_payment_method' as const } : {}),
      });
      if (state.rule !== null) transactionService.setScenarioRule(tx.id, state.rule.label);
      next.pending_charge_id = tx.id;
      next.first_charge_id ??= tx.id;
      save(sub, sub.status, next, null);
      // Declined at creation (an expired card on file): the outcome is already there.
      if (tx.status !== 'PENDING') settle(subscriptions.byIdAnyAccount(sub.id)!, next, tx.status);
      else if (!awaitCustomer) transactionService.play(tx, script);
    });

  /** A subscription charge's outcome moves its subscription on (see the module header). */
  const onChargeResolved = (tx: Transaction): void => {
    if (tx.subscription_id === null || tx.status === 'PENDING') return;
    const sub = subscriptions.byIdAnyAccount(tx.subscription_id);
    if (!sub || sub.state.pending_charge_id !== tx.id) return;
    // The card the customer paid with on the page goes on file (renewals charge it).
    const paidCard = tx.status === 'SUCCEEDED' && sub.state.payment_method_on_file.card === undefined ? tx.payment_method?.card : undefined;
    const state = paidCard
      ? { ...sub.state, payment_method_on_file: { ...sub.state.payment_method_on_file, type: 'card', card: paidCard } }
      : sub.state;
    settle(sub, state, tx.status);
  };
  transactionService.onResolved(onChargeResolved);

  return {
    create(account, request, match = subscriptionMatchInput(request)) {
      const id = randomUUID();
      uow.run(() => {
        const stored = onFile(request);
        const existing = subscriptions.byExternalIdentifier(account.id, stored.external_identifier);
        if (existing) {
          throw duplicateRecord(`A subscription with external_identifier "${stored.external_identifier}" already exists`, existing.id);
        }
        const now = clock.nowMs();
        const schedule = scheduleOf({ request: stored, created_at: now });
        const state: SubscriptionState = {
          period: -1,
          failed_attempts: 0,
          renewal_attempts: 0,
          pending_charge_id: null,
          first_charge_id: null,
          // Matched on the card the request names: the default test card put on file for a request
          // without one triggers no card rule, so an e-mail or amount rule decides its charges.
          rule: policy.forSubscription(match),
          payment_method_on_file: methodOnFile(account.mode, request, now),
          cancelled_at: null,
          cancellation_reason: null,
        };
        subscriptions.insert({
          id,
          account_id: account.id,
          external_identifier: stored.external_identifier,
          status: 'active',
          request: stored,
          state,
          next_charge_at: schedule.origin.getTime(),
          created_at: now,
          updated_at: now,
        });
        uow.afterCommit(() => {
          const created = subscriptions.byIdAnyAccount(id);
          if (created) feed.emit('subscription.created', created.account_id, { id, status: created.status });
        });
        if (schedule.trialEnd === null) startCharge(id);
      });
      return subscriptions.byIdAnyAccount(id)!;
    },

    cancel(id) {
      uow.run(() => {
        const current = subscriptions.byIdAnyAccount(id);
        if (!current) throw notFound(`Subscription ${id} not found`);
        if (subscriptionActions(current).length === 0) {
          throw invalidState(`Subscription ${id} is already ${current.status}; it cannot be cancelled`);
        }
        save(current, 'cancelled', { ...current.state, cancelled_at: clock.nowMs(), cancellation_reason: 'requested' }, null);
      });
      return subscriptions.byIdAnyAccount(id)!;
    },

    registerPaymentMethod(id, method) {
      uow.run(() => {
        const sub = subscriptions.byIdAnyAccount(id);
        if (!sub) throw notFound(`Subscription ${id} not found`);
        const account = accounts.byId(sub.account_id)!;
        if (!collectsMethodDuringTrial(account.mode, sub))
          throw invalidState(`Subscription ${id} has no trial whose payment page collects a payment method`);
        if (subscriptionActions(sub).length === 0) throw invalidState(`Subscription ${id} is ${sub.status}; it no longer charges`);
        if (sub.state.period >= 0) throw invalidState(`The trial of subscription ${id} is over: its first charge was made`);
        const now = clock.nowMs();
        const next: SubscriptionState = { ...sub.state, payment_method_registered_at: now };
        if (method.card) {
          if (isCardExpired(method.card.expiration_date, now)) {
            throw badRequest('The card has expired', [
              { type: 'value_error', pointer: '/expiration_date', message: 'The card expired before this month', location: 'body' },
            ]);
          }
          const pm = sub.request.payment_method;
          next.payment_method_on_file = storedPaymentMethod({
            ...method.card,
            type: 'card',
            ...(pm.payment_channel_code !== undefined ? { payment_channel_code: pm.payment_channel_code } : {}),
          });
          // A magic card given on the page scripts the charges as it would have in the request.
          next.rule ??= policy.forSubscription(
            subscriptionMatchInput({ ...sub.request, payment_method: { ...pm, number: method.card.number } }),
          );
        }
        save(sub, sub.status, next, sub.next_charge_at);
      });
      return subscriptions.byIdAnyAccount(id)!;
    },

    billing: {
      name: 'subscription billing',
      nextDueMs: () => subscriptions.nextDue(),
      countDue: (untilMs) => estimatedCharges(subscriptions.due(untilMs), untilMs),
      runDue(nowMs) {
        // A bounded batch per step, so one step never holds the event loop for long.
        for (const sub of subscriptions.due(nowMs).slice(0, BILLING_BATCH)) {
          try {
            // Charged on the subscription's account's clock.
            clock.inAccount(sub.account_id, () => startCharge(sub.id));
          } catch (err) {
            // Never leave a charge due that cannot start: the clock would stop at it forever.
            deps.onChargeError(sub.id, err);
            subscriptions.update(sub.id, { status: sub.status, state: sub.state, next_charge_at: null, updated_at: nowMs });
          }
        }
      },
    },
  };
}
