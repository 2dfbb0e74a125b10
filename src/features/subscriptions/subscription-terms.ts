/**
 * What a subscription is made of and what it charges: the draft as kept (no card number or
 * code), the payment method put on file, what the scenario rules are matched on, the
 * transaction input of each charge, and the transitions a subscription can take now.
 */
import type { PlanInterval } from './billing-schedule.js';
import { DEFAULT_TEST_CARD, defaultTestCardExpiry } from '../payment-methods/index.js';
import { withoutCardNumbers } from '../../core/redaction/card-data.js';
import { awaitsCustomer } from '../payment-methods/index.js';
import type { AccountIdentity, AccountMode } from '../../core/auth/account.js';
import type { Subscription, SubscriptionDraft } from './entities.js';
import type { StoredPaymentMethod } from '../payment-methods/index.js';
import type { MatchInput } from '../scenarios/index.js';
import { chargeReference, scheduleOf } from './subscription-calendar.js';
import { storedPaymentMethod, type NewTransaction } from '../transactions/index.js';

/** The transitions a subscription can take now: a cancellation while it still charges. */
export function subscriptionActions(sub: Pick<Subscription, 'status'>): 'cancel'[] {
  return sub.status === 'active' || sub.status === 'past_due' ? ['cancel'] : [];
}

/**
 * Whether a subscription's payment page collects the method during a trial instead of charging
 * the first period: its first charge needs the customer and it has a trial.
 */
export function collectsMethodDuringTrial(mode: AccountMode, sub: Pick<Subscription, 'request' | 'created_at'>): boolean {
  return awaitsCustomer(mode, sub.request.payment_method.payment_channel_code) && scheduleOf(sub).trialEnd !== null;
}

/** What the customer gives on a trial subscription's payment page: a card, or (a wallet, QR or banking app) an authorisation. */
export interface RegisteredMethod {
  card?: { number: string; expiration_date: string; holder_name?: string };
}

/**
 * Whether a direct-mode request charges the default test card: a card method without card
 * fields (the spec's payment_method has none; they are a sandbox extension).
 */
export function usesDefaultCard(mode: AccountMode, pm: SubscriptionDraft['payment_method']): boolean {
  return mode === 'direct' && pm.type === 'card' && pm.number === undefined;
}

/** The payment method put on file at creation: the request's card masked, or the default test card. */
export function methodOnFile(mode: AccountMode, request: SubscriptionDraft, nowMs: number): StoredPaymentMethod {
  const pm = request.payment_method;
  if (!usesDefaultCard(mode, pm)) return storedPaymentMethod(pm);
  const stored: StoredPaymentMethod = {
    type: pm.type,
    card: { last4: DEFAULT_TEST_CARD.last4, expiration_date: defaultTestCardExpiry(nowMs), brand: DEFAULT_TEST_CARD.brand },
  };
  if (pm.payment_channel_code !== undefined) stored.payment_channel_code = pm.payment_channel_code;
  return stored;
}

/** What a subscription is matched on against scenario rules. */
export function subscriptionMatchInput(request: SubscriptionDraft): MatchInput {
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
 * The request as stored: the card number and security code are never kept (the masked card
 * is on file), nor a card number in any free text (masked).
 */
export function onFile(request: SubscriptionDraft): SubscriptionDraft {
  const { number: _number, security_code: _code, ...paymentMethod } = request.payment_method;
  if (paymentMethod.holder_name !== undefined) paymentMethod.holder_name = withoutCardNumbers(paymentMethod.holder_name);
  return { ...withoutCardNumbers({ ...request, payment_method: {} }), payment_method: paymentMethod };
}

/**
 * The transaction that charges period `period` (attempt `attempt`) of a subscription. In
 * checkout mode its payment page sends the customer back to `payment_method.redirect_url`,
 * or to the sandbox's own start page when there is none.
 */
export function chargeInput(
  account: AccountIdentity,
  request: SubscriptionDraft,
  period: number,
  attempt: number,
  startPageUrl: () => string,
): NewTransaction {
  const { customer, payment_method: pm, plan } = request;
  const name = customer.display_name ?? ([customer.first_name, customer.last_name].filter(Boolean).join(' ') || undefined);
  const paymentMethod: NonNullable<NewTransaction['payment_method']> = { type: pm.type };
  for (const key of ['payment_channel_code', 'number', 'expiration_date', 'security_code', 'holder_name'] as const) {
    if (pm[key] !== undefined) paymentMethod[key] = pm[key];
  }
  const input: NewTransaction = {
    amount: period === 0 ? request.amount : plan.amount,
    currency: period === 0 ? request.currency : plan.currency,
    description: `Subscription ${request.external_identifier} (${plan.name}), ${period === 0 ? 'first period' : `renewal ${period}`}${attempt > 1 ? `, attempt ${attempt}` : ''}`,
    customer: name === undefined ? { email: customer.email_address } : { email: customer.email_address, name },
    external_identifier: chargeReference(request.external_identifier, period, attempt),
    payment_method: paymentMethod,
  };
  const returnUrl = pm.redirect_url ?? (account.mode === 'checkout' ? startPageUrl() : undefined);
  if (returnUrl !== undefined) input.return_url = returnUrl;
  if (request.metadata !== undefined) input.metadata = request.metadata;
  if (request.browser_info !== undefined) input.browser_info = request.browser_info;
  return input;
}

const DAY_MS = 86_400_000;
/** The shortest length of one interval (a month is at least 28 days), for estimating renewals. */
const SHORTEST_INTERVAL_MS: Record<PlanInterval, number> = { day: DAY_MS, week: 7 * DAY_MS, month: 28 * DAY_MS, year: 365 * DAY_MS };

/** At most how many charges the subscriptions due by `untilMs` make until then (renewals and every retry of a past_due one). */
export function estimatedCharges(due: readonly Subscription[], untilMs: number): number {
  let count = 0;
  for (const sub of due) {
    const { interval, interval_time: times, payment_attempts: attempts } = sub.request.plan;
    const shortest = times * SHORTEST_INTERVAL_MS[interval];
    count += Math.floor((untilMs - (sub.next_charge_at ?? untilMs)) / shortest) + 1;
    if (sub.status === 'past_due') count += attempts;
  }
  return count;
}
