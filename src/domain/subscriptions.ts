/**
 * The subscription life cycle (contract: Resources → Subscriptions). A subscription is
 * charged for its first period at creation, or when its trial ends; each charge is a
 * transaction (`createTransaction` with the subscription's id, its payment webhook going to
 * `payment_method.webhooks_url`) whose outcome the sandbox sets on its own: SUCCEEDED unless
 * the scenario rule matched at creation says otherwise. What an outcome does to the
 * subscription is decided in one place, `onChargeResolved` (a `hooks.transactionResolved`
 * hook, so an outcome set by hand or on the payment page counts the same):
 *
 * - first charge SUCCEEDED → `active`; FAILED → `failed` (terminal, no retry);
 * - renewal SUCCEEDED → `active`, the next renewal due at the end of the period;
 * - renewal FAILED → `past_due`, retried every `RENEWAL_RETRY_SECONDS` on the sandbox clock
 *   until `plan.payment_attempts` attempts of that renewal have failed → `cancelled`.
 *
 * Renewals run on the sandbox clock as a `TimedWork` (`SubscriptionBilling`), so one clock
 * advance runs every renewal that falls due, in time order, each with its webhook.
 * Calendar arithmetic (periods, anchors, month ends) lives in `billing-schedule.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { SubscriptionCreate } from '../http/routes/subscriptions.schemas.js';
import type { Sandbox } from '../sandbox.js';
import { ruleLabel, scriptOf, webhookFailuresOf, type ChargeScript } from '../scenarios/engine.js';
import type { MatchInput } from '../scenarios/match.js';
import type { PaymentOutcome, ScenarioStep } from '../scenarios/schema.js';
import type { AccountRow } from '../store/accounts.js';
import type { SubscriptionRow, SubscriptionStatus } from '../store/subscriptions.js';
import type { TransactionRow } from '../store/transactions.js';
import { buildSchedule, isoDate, nthPeriod, type BillingSchedule } from './billing-schedule.js';
import { isoTimestamp } from './clock.js';
import { duplicateRecord, invalidState, type ErrorDetail } from './errors.js';
import type { TimedWork } from './scheduler.js';
import { createTransaction, modeRequirements, storedPaymentMethod, type NewTransaction, type StoredPaymentMethod } from './transactions.js';

/** Spacing of the retries of a failed renewal, on the sandbox clock: one day. */
export const RENEWAL_RETRY_SECONDS = 86_400;

/** A validated POST /v4/subscriptions body (defaults applied). */
export type NewSubscription = SubscriptionCreate;

/** The billing progress of a subscription, stored as JSON in `subscriptions.state`. */
export interface SubscriptionState {
  /** Index of the latest paid period charged or being charged (0 = first); -1 before the first charge. */
  period: number;
  /** Failed attempts of `period` so far. */
  failed_attempts: number;
  /** Renewal charge attempts made so far, retries included (`renewal_outcomes` is read in this order). */
  renewal_attempts: number;
  /** The charge waiting for its outcome, if any. */
  pending_charge_id: string | null;
  /** The first charge (its payment page is the checkout `payment_url_link`). */
  first_charge_id: string | null;
  /** `scenario/rule` matched at creation, or null. */
  scenario_rule: string | null;
  /** The matched rule's steps, as they were at creation. */
  steps: ScenarioStep[];
  /** The payment method charged each period, masked (card: last4, brand, expiry; never the number or code). */
  payment_method_on_file: StoredPaymentMethod;
  cancelled_at: number | null;
  cancellation_reason: 'requested' | 'payment_attempts' | null;
}

/** The dates of a subscription as the Subscription object shows them (epoch ms; date as YYYY-MM-DD). */
export interface SubscriptionCalendar {
  currentPeriodStart: number;
  currentPeriodEnd: number;
  nextBillingDate: string;
  trialStart: number | null;
  trialEnd: number | null;
}

/** The stored creation request of a subscription. */
export function requestOf(row: SubscriptionRow): NewSubscription {
  return JSON.parse(row.request) as NewSubscription;
}

/** The stored billing state of a subscription. */
export function stateOf(row: SubscriptionRow): SubscriptionState {
  return JSON.parse(row.state) as SubscriptionState;
}

/** The billing calendar of a subscription, rebuilt from its request and creation time. */
export function scheduleOf(row: SubscriptionRow): BillingSchedule {
  const request = requestOf(row);
  return buildSchedule({ created: new Date(row.created_at), plan: request.plan, trialEnd: request.trial_end ?? null });
}

/**
 * The current period and next billing date. Before the first charge (a trial) the current
 * period is the trial; afterwards it is the latest period charged or being charged.
 * `next_billing_date` is the day of the next charge attempt: the trial's end, the end of the
 * current period, or, while `past_due`, the day of the next retry. A subscription with no
 * charge to come (cancelled, failed) shows the end of its last period.
 */
export function subscriptionCalendar(row: SubscriptionRow): SubscriptionCalendar {
  const schedule = scheduleOf(row);
  const state = stateOf(row);
  const period =
    state.period < 0
      ? { start: schedule.trialStart ?? new Date(row.created_at), end: schedule.origin }
      : nthPeriod(schedule, state.period);
  return {
    currentPeriodStart: period.start.getTime(),
    currentPeriodEnd: period.end.getTime(),
    nextBillingDate: isoDate(new Date(row.next_charge_at ?? period.end.getTime())),
    trialStart: schedule.trialStart?.getTime() ?? null,
    trialEnd: schedule.trialEnd?.getTime() ?? null,
  };
}

/** What a subscription is matched on against scenario rules. */
export function subscriptionMatchInput(request: NewSubscription): MatchInput {
  return {
    kind: 'subscription',
    amount: request.amount,
    currency: request.currency,
    cardNumber: request.payment_method.number ?? null,
    customerEmail: request.customer.email_address,
    metadata: request.metadata ?? null,
    paymentChannelCode: request.payment_method.payment_channel_code ?? null,
    plan: { name: request.plan.name, interval: request.plan.interval },
  };
}

/**
 * The merchant reference of a charge, sent as the webhook's `merchant_transaction_id`:
 * `<external_identifier>.period-<n>` (n = 0 for the first charge, then the renewal number),
 * with `.attempt-<m>` for the retries of a failed renewal.
 */
export function chargeReference(externalIdentifier: string, period: number, attempt: number): string {
  return `${externalIdentifier}.period-${period}${attempt > 1 ? `.attempt-${attempt}` : ''}`;
}

/**
 * The transaction that charges period `period` (attempt `attempt`) of a subscription. In
 * checkout mode its payment page sends the customer back to `payment_method.redirect_url`,
 * or to the sandbox's own start page when there is none.
 */
function chargeInput(sandbox: Sandbox, account: AccountRow, request: NewSubscription, period: number, attempt: number): NewTransaction {
  const { customer, payment_method: pm, plan } = request;
  const name = customer.display_name ?? ([customer.first_name, customer.last_name].filter(Boolean).join(' ') || undefined);
  const paymentMethod: NonNullable<NewTransaction['payment_method']> = { type: pm.type };
  for (const key of ['payment_channel_code', 'number', 'expiration_date', 'security_code', 'holder_name'] as const) {
    if (pm[key] !== undefined) paymentMethod[key] = pm[key];
  }
  // A stored request has no card number or code (`onFile`): its charges use the method on file.
  const input: NewTransaction = {
    amount: period === 0 ? request.amount : plan.amount,
    currency: period === 0 ? request.currency : plan.currency,
    description: `Subscription ${request.external_identifier} (${plan.name}), ${period === 0 ? 'first period' : `renewal ${period}`}${attempt > 1 ? `, attempt ${attempt}` : ''}`,
    customer: name === undefined ? { email: customer.email_address } : { email: customer.email_address, name },
    external_identifier: chargeReference(request.external_identifier, period, attempt),
    payment_method: paymentMethod,
  };
  const returnUrl = pm.redirect_url ?? (account.mode === 'checkout' ? `${sandbox.baseUrl}/` : undefined);
  if (returnUrl !== undefined) input.return_url = returnUrl;
  if (request.metadata !== undefined) input.metadata = request.metadata;
  if (request.browser_info !== undefined) input.browser_info = request.browser_info;
  return input;
}

/**
 * Rules of a schema-valid creation request that depend on the sandbox's state: `trial_end`
 * must lie ahead of the sandbox clock, and every charge must be one the account's mode
 * accepts (direct mode: a wallet or QR method needs its `payment_channel_code`).
 */
export function subscriptionRequestProblems(sandbox: Sandbox, account: AccountRow, request: NewSubscription): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const problem = trialEndProblem(request.trial_end, sandbox.clock.nowMs());
  if (problem) details.push(problem);
  details.push(...modeRequirements(account, chargeInput(sandbox, account, request, 0, 1)));
  return details;
}

/** 400 detail for a `trial_end` that is not after `nowMs` (sandbox clock), or null. */
export function trialEndProblem(trialEnd: string | undefined, nowMs: number): ErrorDetail | null {
  if (trialEnd === undefined) return null;
  const at = Date.parse(trialEnd);
  if (Number.isNaN(at) || at > nowMs) return null;
  return {
    type: 'value_error',
    pointer: '/trial_end',
    message: `Must be in the future; the sandbox clock is at ${isoTimestamp(nowMs)}`,
    location: 'body',
  };
}

const updatesToEmit = new WeakMap<Sandbox, Set<string>>();

/**
 * Emits `subscription.updated` with the committed status once the current (synchronous)
 * database work is done; several changes in one go give one event.
 */
function emitUpdatedLater(sandbox: Sandbox, id: string): void {
  let pending = updatesToEmit.get(sandbox);
  if (!pending) updatesToEmit.set(sandbox, (pending = new Set()));
  if (pending.has(id)) return;
  pending.add(id);
  queueMicrotask(() => {
    pending.delete(id);
    if (!sandbox.db.open) return;
    const row = sandbox.stores.subscriptions.byIdAnyAccount(id);
    if (row) sandbox.emit('subscription.updated', row.account_id, { id, status: row.status });
  });
}

function save(sandbox: Sandbox, row: SubscriptionRow, status: SubscriptionStatus, state: SubscriptionState, nextChargeAt: number | null): void {
  sandbox.stores.subscriptions.update(row.id, {
    status,
    state: JSON.stringify(state),
    next_charge_at: nextChargeAt,
    updated_at: sandbox.clock.nowMs(),
  });
  emitUpdatedLater(sandbox, row.id);
}

/**
 * The outcome of a renewal charge attempt: FAILED when the rule's `renewal_fails` names the
 * renewal, or the next entry of `renewal_outcomes`; SUCCEEDED otherwise.
 */
export function renewalOutcome(steps: readonly ScenarioStep[], renewal: number, renewalAttemptsBefore: number): PaymentOutcome {
  for (const step of steps) {
    if ('renewal_fails' in step && step.renewal_fails.includes(renewal)) return 'FAILED';
    if ('renewal_outcomes' in step) return step.renewal_outcomes[renewalAttemptsBefore] ?? 'SUCCEEDED';
  }
  return 'SUCCEEDED';
}

/**
 * Starts the charge that is due for a subscription: the first period, the next renewal, or
 * (when `past_due`) another attempt of the failed renewal. A charge of 0 (a free plan) is
 * recorded as paid without a transaction.
 */
function startCharge(sandbox: Sandbox, subscriptionId: string): void {
  const { stores } = sandbox;
  sandbox.db.transaction(() => {
    const row = stores.subscriptions.byIdAnyAccount(subscriptionId);
    if (!row || (row.status !== 'active' && row.status !== 'past_due')) return;
    const request = requestOf(row);
    const state = stateOf(row);
    if (state.pending_charge_id !== null) return;
    const retry = row.status === 'past_due';
    const period = retry ? state.period : state.period + 1;
    const attempt = retry ? state.failed_attempts + 1 : 1;
    const script: ChargeScript =
      period === 0
        ? scriptOf(state.steps, 'SUCCEEDED')
        : { outcome: renewalOutcome(state.steps, period, state.renewal_attempts), afterSeconds: 0, refunds: [], webhookFailures: webhookFailuresOf(state.steps) };
    const next: SubscriptionState = { ...state, period, renewal_attempts: state.renewal_attempts + (period > 0 ? 1 : 0) };
    const account = stores.accounts.byId(row.account_id)!;
    const input = chargeInput(sandbox, account, request, period, attempt);
    if (input.amount === 0) {
      settle(sandbox, row, next, 'SUCCEEDED');
      return;
    }
    const tx = createTransaction(sandbox, account, input, {
      subscriptionId: row.id,
      notificationUrl: request.payment_method.webhooks_url,
      paymentMethodOnFile: state.payment_method_on_file,
    });
    if (state.scenario_rule !== null) stores.transactions.setScenarioRule(tx.id, state.scenario_rule);
    next.pending_charge_id = tx.id;
    next.first_charge_id ??= tx.id;
    save(sandbox, row, row.status, next, null);
    sandbox.scenarios.play(tx, script);
  })();
}

/** Applies the outcome of the charge of `state.period` to the subscription. */
function settle(sandbox: Sandbox, row: SubscriptionRow, state: SubscriptionState, outcome: PaymentOutcome): void {
  const next: SubscriptionState = { ...state, pending_charge_id: null };
  if (row.status === 'cancelled' || row.status === 'failed') {
    save(sandbox, row, row.status, next, null);
    return;
  }
  const now = sandbox.clock.nowMs();
  if (outcome === 'SUCCEEDED') {
    next.failed_attempts = 0;
    save(sandbox, row, 'active', next, nthPeriod(scheduleOf(row), state.period).end.getTime());
  } else if (state.period === 0) {
    save(sandbox, row, 'failed', next, null);
  } else {
    next.failed_attempts = state.failed_attempts + 1;
    if (next.failed_attempts >= requestOf(row).plan.payment_attempts) {
      next.cancelled_at = now;
      next.cancellation_reason = 'payment_attempts';
      save(sandbox, row, 'cancelled', next, null);
    } else {
      save(sandbox, row, 'past_due', next, now + RENEWAL_RETRY_SECONDS * 1000);
    }
  }
}

/**
 * The `hooks.transactionResolved` hook: a subscription charge's outcome moves its
 * subscription on (see the module header). Runs inside the resolving database transaction.
 */
export function onChargeResolved(sandbox: Sandbox, tx: TransactionRow): void {
  if (tx.subscription_id === null || tx.status === 'PENDING') return;
  const row = sandbox.stores.subscriptions.byIdAnyAccount(tx.subscription_id);
  if (!row) return;
  const state = stateOf(row);
  if (state.pending_charge_id !== tx.id) return;
  settle(sandbox, row, state, tx.status);
}

/**
 * Creates a subscription (status `active`) and, without a trial, charges its first period
 * at once, so the answer already shows the outcome (`failed` when it was declined).
 * 409 `duplicate_record` with `resource_id` when the account already has a subscription
 * with this `external_identifier`. The request must have passed the schema and
 * `subscriptionRequestProblems`.
 */
export function createSubscription(sandbox: Sandbox, account: AccountRow, request: NewSubscription): SubscriptionRow {
  const { stores, clock } = sandbox;
  const id = randomUUID();
  sandbox.db.transaction(() => {
    const existing = stores.subscriptions.byExternalIdentifier(account.id, request.external_identifier);
    if (existing) {
      throw duplicateRecord(`A subscription with external_identifier "${request.external_identifier}" already exists`, existing.id);
    }
    const now = clock.nowMs();
    const schedule = buildSchedule({ created: new Date(now), plan: request.plan, trialEnd: request.trial_end ?? null });
    const found = sandbox.scenarios.match(subscriptionMatchInput(request));
    const state: SubscriptionState = {
      period: -1,
      failed_attempts: 0,
      renewal_attempts: 0,
      pending_charge_id: null,
      first_charge_id: null,
      scenario_rule: found ? ruleLabel(found) : null,
      steps: found ? found.rule.steps : [],
      payment_method_on_file: storedPaymentMethod(request.payment_method),
      cancelled_at: null,
      cancellation_reason: null,
    };
    stores.subscriptions.insert({
      id,
      account_id: account.id,
      external_identifier: request.external_identifier,
      status: 'active',
      request: JSON.stringify(onFile(request)),
      state: JSON.stringify(state),
      next_charge_at: schedule.origin.getTime(),
      created_at: now,
      updated_at: now,
    });
    if (schedule.trialEnd === null) startCharge(sandbox, id);
  })();
  const created = stores.subscriptions.byIdAnyAccount(id)!;
  sandbox.emit('subscription.created', created.account_id, { id, status: created.status });
  return created;
}

/** The request as stored: the card number and security code are never kept (the masked card is on file). */
function onFile(request: NewSubscription): NewSubscription {
  const { number: _number, security_code: _code, ...paymentMethod } = request.payment_method;
  return { ...request, payment_method: paymentMethod };
}

/**
 * Cancels a subscription now: no further charges (a charge already waiting for its outcome
 * still gets it). 409 `invalid_state` when it is already `cancelled` or `failed`.
 */
export function cancelSubscription(sandbox: Sandbox, row: SubscriptionRow): SubscriptionRow {
  sandbox.db.transaction(() => {
    const current = sandbox.stores.subscriptions.byIdAnyAccount(row.id)!;
    if (current.status === 'cancelled' || current.status === 'failed') {
      throw invalidState(`Subscription ${row.id} is already ${current.status}; it cannot be cancelled`);
    }
    const state: SubscriptionState = { ...stateOf(current), cancelled_at: sandbox.clock.nowMs(), cancellation_reason: 'requested' };
    save(sandbox, current, 'cancelled', state, null);
  })();
  return sandbox.stores.subscriptions.byIdAnyAccount(row.id)!;
}

/** Runs the charges that fall due (trial ends, renewals, retries) on the sandbox clock. */
export class SubscriptionBilling implements TimedWork {
  readonly name = 'subscription billing';

  constructor(private readonly sandbox: Sandbox) {}

  nextDueMs(): number | null {
    return this.sandbox.stores.subscriptions.nextDue();
  }

  async runDue(nowMs: number, wait: boolean): Promise<void> {
    for (const row of this.sandbox.stores.subscriptions.due(nowMs)) {
      try {
        startCharge(this.sandbox, row.id);
      } catch (err) {
        // Never leave a charge due that cannot start: the clock would stop at it forever.
        console.error(`[payment-sandbox] charge of subscription ${row.id} failed; no further charges:`, err);
        this.sandbox.stores.subscriptions.update(row.id, { status: row.status, state: row.state, next_charge_at: null, updated_at: nowMs });
      }
    }
    // During a clock advance, deliver the charges' webhooks before the clock moves on.
    if (wait) await this.sandbox.dispatcher.runDue(this.sandbox.clock.nowMs(), true);
  }
}

/** Hooks subscription billing into transaction outcomes and registers it on the scheduler. */
export function installSubscriptionBilling(sandbox: Sandbox): SubscriptionBilling {
  const billing = new SubscriptionBilling(sandbox);
  sandbox.hooks.transactionResolved.push((tx) => onChargeResolved(sandbox, tx));
  sandbox.scheduler.register(billing);
  return billing;
}
