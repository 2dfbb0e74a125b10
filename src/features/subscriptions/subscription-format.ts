/**
 * The wire format of a subscription (spec: Subscription (response body)): a stored subscription in,
 * the spec's Subscription object out. The dates come from the subscription's billing
 * calendar (`subscriptions.ts`); card data is never shown beyond `last4` and
 * `expiration_date`.
 */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { AccountMode } from '../../core/auth/account.js';
import type { Subscription } from './entities.js';
import { subscriptionCalendar } from './subscription-calendar.js';
import { awaitsCustomer } from '../payment-methods/index.js';
import { collectsMethodDuringTrial } from './subscription-terms.js';
import type { Subscription as SubscriptionResponse } from './subscription-response-schema.js';

/**
 * A Subscription object. `payment_url_link`, when the first charge needs the customer
 * (checkout mode, or a QR, wallet or banking-app channel), is present from creation: with a
 * trial, the subscription's own page, which collects the payment method without charging;
 * without one, the payment page of the first charge. Null for a direct-mode card subscription.
 */
export function subscriptionView(row: Subscription, baseUrl: string, mode: AccountMode): SubscriptionResponse {
  const { request, state } = row;
  const calendar = subscriptionCalendar(row);
  const pm = request.payment_method;
  return {
    id: row.id,
    object: 'subscription',
    external_identifier: row.external_identifier,
    amount: request.amount,
    currency: request.currency,
    created: isoTimestamp(row.created_at),
    customer: request.customer,
    plan: request.plan,
    payment_method: state.payment_method_on_file.card
      ? {
          type: pm.type,
          card: { last4: state.payment_method_on_file.card.last4, expiration_date: state.payment_method_on_file.card.expiration_date },
        }
      : { type: pm.type },
    status: row.status,
    current_period_start: isoTimestamp(calendar.currentPeriodStart),
    current_period_end: isoTimestamp(calendar.currentPeriodEnd),
    next_billing_date: calendar.nextBillingDate,
    trial_start: calendar.trialStart === null ? null : isoTimestamp(calendar.trialStart),
    trial_end: calendar.trialEnd === null ? null : isoTimestamp(calendar.trialEnd),
    ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
    payment_url_link: paymentUrlLink(row, baseUrl, mode),
  };
}

function paymentUrlLink(row: Subscription, baseUrl: string, mode: AccountMode): string | null {
  if (!awaitsCustomer(mode, row.request.payment_method.payment_channel_code)) return null;
  if (collectsMethodDuringTrial(mode, row)) return `${baseUrl}/pay/${row.id}`;
  return row.state.first_charge_id !== null ? `${baseUrl}/pay/${row.state.first_charge_id}` : null;
}
