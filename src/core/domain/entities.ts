/**
 * The sandbox's records as the domain sees them: typed, with every JSON column already
 * parsed by the store (`store/*` reads and writes them). Times are epoch milliseconds on
 * the sandbox clock; `seq` is the insertion order that cursor pages run on.
 */

import type { PaymentMethodType, StoredPaymentMethod } from '../../features/payment-methods/index.js';
import type { PlanInterval, RuleSnapshot } from '../../features/scenarios/index.js';

export type AccountMode = 'direct' | 'checkout';

export interface Account {
  id: string;
  name: string;
  mode: AccountMode;
  api_key: string;
  jwt_kid: string;
  jwt_private_key_pem: string;
  jwt_public_key_pem: string;
  created_at: number;
}

export interface Buyer {
  seq: number;
  id: string;
  account_id: string;
  display_name: string | null;
  external_identifier: string | null;
  created_at: number;
  updated_at: number;
}

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

export type DeliveryKind = 'payment' | 'refund';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A webhook in the outbox. */
export interface Delivery {
  seq: number;
  id: string;
  account_id: string;
  kind: DeliveryKind;
  /** The transaction or refund the webhook is about. */
  resource_id: string;
  url: string | null;
  /** The exact raw body sent on every attempt. */
  body: string;
  /** The body's signature, made once at the first attempt (it depends on the body alone). */
  signature: string | null;
  status: DeliveryStatus;
  attempts: number;
  simulated_failures: number;
  simulated_failure_status: number;
  /**
   * A scripted webhook fault this delivery plays (null for an ordinary one): a `duplicate`
   * copy, a `delayed` one, a copy with a `bad_signature` (attempted once, outside the
   * transaction's order) or part of an `out_of_order` pair. A pending delivery with no
   * `next_attempt_at` is parked until a later one of its transaction has been attempted.
   */
  fault: DeliveryFault | null;
  /**
   * The queue this webhook is delivered in, one at a time in the order queued, when it is wider
   * than its transaction: every webhook of one subscription's charges (and their refunds) to one
   * URL. Null (or absent): its transaction's own.
   */
  order_key?: string | null;
  /**
   * 1 for a webhook canary (`--webhook-canary`): a `bad_signature` copy the sandbox sent on its
   * own, once per URL of an account, after the first delivery that URL acknowledged; 0 (or
   * absent) for every other delivery.
   */
  canary?: 0 | 1;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface DeliveryAttempt {
  seq: number;
  delivery_id: string;
  number: number;
  at: number;
  url: string | null;
  request_headers: Record<string, string>;
  // The body every attempt sent is the delivery's own `body`, stored once.
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  ok: boolean;
}

/** The webhook faults a scenario rule, the control API or the panel can script (one list for all of them). */
export const DELIVERY_FAULTS = ['duplicate', 'out_of_order', 'delayed', 'bad_signature'] as const;
export type DeliveryFault = (typeof DELIVERY_FAULTS)[number];

/** One webhook fault of a scenario rule (`seconds` for `delayed`). */
export interface WebhookFault {
  kind: DeliveryFault;
  seconds?: number;
}

export interface SimulatedFailures {
  count: number;
  status: number;
}
