/**
 * The sandbox's records as the domain sees them: typed, with every JSON column already
 * parsed by the store (`store/*` reads and writes them). Times are epoch milliseconds on
 * the sandbox clock; `seq` is the insertion order that cursor pages run on.
 */

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

export type TransactionStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';
/** The terminal statuses: a transaction's outcome. */
export type TransactionOutcome = Exclude<TransactionStatus, 'PENDING'>;

/** What is stored and echoed of a payment method: never the full number or the security code. */
export interface StoredPaymentMethod {
  type: string;
  payment_channel_code?: string;
  card?: { last4: string; expiration_date: string; brand: string; holder_name?: string };
  /** PromptPay and Pix: the EMVCo merchant-presented QR payload the customer scans. */
  qr_payload?: string;
}

/** Why a payment was declined (sandbox extension; the spec's webhook has no room for it). */
/**
 * Why a payment was declined (sandbox extension; the spec's webhook has no room for it):
 * `expired_card`, or `no_payment_method` for the first charge of a trial subscription whose
 * customer never completed the payment page before the trial ended.
 */
export type DeclineReason = 'expired_card' | 'no_payment_method';

export interface TransactionCustomer {
  email?: string;
  name?: string;
}

export interface Transaction {
  seq: number;
  id: string;
  account_id: string;
  status: TransactionStatus;
  amount: number;
  currency: string;
  description: string | null;
  customer: TransactionCustomer | null;
  return_url: string | null;
  cancel_url: string | null;
  external_identifier: string | null;
  notification_url: string | null;
  metadata: Record<string, string> | null;
  payment_method: StoredPaymentMethod | null;
  browser_info: Record<string, unknown> | null;
  refunded_amount: number;
  subscription_id: string | null;
  /** `scenario/rule` that decides the transaction, or null. */
  scenario_rule: string | null;
  /** Why the payment was declined, when the sandbox knows (`expired_card`), else null. */
  decline_reason: DeclineReason | null;
  /**
   * When its payment link expires (sandbox clock), for a payment that waits for the
   * customer's step; null for one that needs no step (a direct card, a renewal).
   */
  link_expires_at: number | null;
  created_at: number;
  updated_at: number;
  resolved_at: number | null;
}

export interface Refund {
  seq: number;
  id: string;
  account_id: string;
  transaction_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  external_identifier: string | null;
  status: 'SUCCESS';
  created_at: number;
  updated_at: number;
}

/** The spec's subscription statuses. */
export type SubscriptionStatus = 'failed' | 'active' | 'past_due' | 'cancelled';

/** A plan's billing intervals (the request schemas, the scenario format and the billing schedule use this list). */
export const PLAN_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/**
 * The kinds of payment method a request names (`payment_method.type`): exactly the types the
 * channels of the catalogue take, one per channel (`GET /_sandbox/payment-methods`).
 */
export const PAYMENT_METHOD_TYPES = ['card', 'wallet', 'qr', 'mobile_banking'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

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

/**
 * The rule a scenario matched for a subscription at creation, kept with it so renewals are
 * decided by the rule as it was: its label and its steps, opaque to the domain (the
 * scenario policy reads them).
 */
export interface RuleSnapshot {
  label: string;
  steps: readonly unknown[];
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

/** A scenario step waiting for its instant on the sandbox clock. */
export type ScheduledAction =
  | { kind: 'outcome'; outcome: TransactionOutcome; webhook_failures?: SimulatedFailures }
  | { kind: 'refund'; amount?: number; reason?: string; webhook_failures?: SimulatedFailures };

export interface ScheduledStep {
  seq: number;
  account_id: string;
  due_at: number;
  /** The transaction the step acts on. */
  resource_id: string;
  action: ScheduledAction;
}
