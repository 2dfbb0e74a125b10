/**
 * Subscriptions as the subscriptions feature keeps them: the request they were made of, their
 * billing progress, and when they are next charged (`subscriptions-store.ts` parses the JSON
 * columns). Times are epoch milliseconds on the sandbox clock.
 */
import type { PaymentMethodType, StoredPaymentMethod } from '../payment-methods/index.js';
import type { PlanInterval, RuleSnapshot } from '../scenarios/index.js';

/** The spec's subscription statuses. */
export type SubscriptionStatus = 'failed' | 'active' | 'past_due' | 'cancelled';

/**
 * What a new subscription is made of: the domain's own input to `SubscriptionService.create`
 * (the API's validated body is mapped to it at the edge, `http/wire/subscription-draft.ts`).
 * It is kept with the subscription as `Subscription.request`, without the card number and
 * security code (the masked card is on file).
 */
export interface SubscriptionDraft {
  external_identifier: string;
  amount: number;
  currency: string;
  customer: {
    email_address: string;
    display_name?: string;
    external_identifier?: string;
    first_name?: string;
    last_name?: string;
    phone_number?: string;
    account_number?: string;
  };
  plan: {
    name: string;
    amount: number;
    currency: string;
    interval: PlanInterval;
    interval_time: number;
    trial_period_days?: number;
    billing_cycle_anchor?: string;
    payment_attempts: number;
  };
  payment_method: {
    type: PaymentMethodType;
    payment_channel_code?: string;
    redirect_url?: string;
    webhooks_url?: string;
    number?: string;
    expiration_date?: string;
    security_code?: string;
    holder_name?: string;
  };
  trial_end?: string;
  description?: string;
  metadata?: Record<string, string>;
  browser_info?: Record<string, unknown>;
  billing_details?: Record<string, unknown>;
  cart_items?: Record<string, unknown>[];
}

/** The billing progress of a subscription. */
export interface SubscriptionState {
  /** Index of the latest paid period charged or being charged (0 = first); -1 before the first charge. */
  period: number;
  /** Failed attempts of `period` so far. */
  failed_attempts: number;
  /** Renewal charge attempts made so far, retries included (a rule's `renewal_outcomes` is read in this order). */
  renewal_attempts: number;
  /** The charge waiting for its outcome, if any. */
  pending_charge_id: string | null;
  /** The first charge (its payment page is the checkout `payment_url_link`). */
  first_charge_id: string | null;
  /** The scenario rule matched at creation, or null. */
  rule: RuleSnapshot | null;
  /** The payment method charged each period, masked (card: last4, brand, expiry; never the number or code). */
  payment_method_on_file: StoredPaymentMethod;
  cancelled_at: number | null;
  cancellation_reason: 'requested' | 'payment_attempts' | null;
  /**
   * When the customer completed the payment page of a trial subscription (card registered or
   * method authorised, nothing charged); null or absent while they have not.
   */
  payment_method_registered_at?: number | null;
}

export interface Subscription {
  seq: number;
  id: string;
  account_id: string;
  external_identifier: string;
  status: SubscriptionStatus;
  request: SubscriptionDraft;
  state: SubscriptionState;
  /** Sandbox-clock instant of the next charge attempt, null when none is due. */
  next_charge_at: number | null;
  created_at: number;
  updated_at: number;
}
