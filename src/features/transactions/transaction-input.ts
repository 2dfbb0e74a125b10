/**
 * What a new transaction is made of and what is kept of it: the domain's input types, the
 * masking of a payment method for storage (with a QR channel's EMVCo payload), what the
 * scenario rules are matched on, and the transitions a transaction can take now.
 */
import { cardBrand, cardLast4, isCardExpired, isValidExpiry } from '../payment-methods/index.js';
import { withoutCardNumbers } from '../../core/redaction/card-data.js';
import { qrPayloadFor } from '../payment-methods/index.js';
import type { AccountIdentity } from '../../core/auth/account.js';
import type { DeclineReason, Transaction, TransactionCustomer } from './entities.js';
import type { StoredPaymentMethod } from '../payment-methods/index.js';
import { paymentChannel } from '../payment-methods/index.js';
import type { MatchInput } from '../scenarios/index.js';
import { refundableAmount } from './refunds.js';

/** A payment method as the request carries it (card fields in direct mode). */
export interface PaymentMethodInput {
  type: string;
  payment_channel_code?: string;
  number?: string;
  expiration_date?: string;
  security_code?: string;
  holder_name?: string;
}

export interface NewTransaction {
  amount: number;
  currency: string;
  description?: string;
  customer?: TransactionCustomer;
  return_url?: string;
  cancel_url?: string;
  external_identifier?: string;
  notification_url?: string;
  metadata?: Record<string, string>;
  payment_method?: PaymentMethodInput;
  browser_info?: Record<string, unknown>;
}

/** Extra facts of a new transaction: what the caller already built, and those of a charge made by subscription billing. */
export interface ChargeContext {
  /**
   * What the scenario rules see of a new (non-subscription) payment, when the caller built it
   * already for its own check (the API's `api_fault` steps); else `transactionMatchInput(input)`.
   */
  match?: MatchInput;
  subscriptionId?: string;
  /** Where its webhook goes when the input names no notification_url. */
  notificationUrl?: string;
  /** The (masked) payment method on file, charged instead of card data in the request. */
  paymentMethodOnFile?: StoredPaymentMethod;
  /**
   * Whether this charge waits for the customer on the payment page (a subscription's first
   * charge in checkout mode or with a customer-step channel). Renewals never do.
   */
  awaitCustomer?: boolean;
  /** Declined before it is charged (a trial subscription whose customer never gave a method): created FAILED. */
  declineReason?: DeclineReason;
}

/** Whether a card on file (MM/YY) has expired at `nowMs`; a malformed expiry is not judged here. */
export function cardOnFileExpired(pm: StoredPaymentMethod | null, nowMs: number): boolean {
  const expiry = pm?.card?.expiration_date;
  return expiry !== undefined && isValidExpiry(expiry) && isCardExpired(expiry, nowMs);
}

/** The transitions a transaction can take now: an outcome while PENDING, a refund while something is left. */
export function allowedActions(tx: Pick<Transaction, 'status' | 'amount' | 'refunded_amount'>): ('settle' | 'fail' | 'refund')[] {
  if (tx.status === 'PENDING') return ['settle', 'fail'];
  return refundableAmount(tx) > 0 ? ['refund'] : [];
}

/** Masks a request payment method for storage. */
export function storedPaymentMethod(pm: PaymentMethodInput): StoredPaymentMethod {
  const out: StoredPaymentMethod = { type: pm.type };
  if (pm.payment_channel_code !== undefined) out.payment_channel_code = pm.payment_channel_code;
  if (pm.number !== undefined) {
    out.card = { last4: cardLast4(pm.number), expiration_date: pm.expiration_date ?? '', brand: cardBrand(pm.number) };
    if (pm.holder_name !== undefined) out.card.holder_name = withoutCardNumbers(pm.holder_name);
  }
  return out;
}

/** What a new transaction is matched on against scenario rules. */
export function transactionMatchInput(input: NewTransaction): MatchInput {
  return {
    kind: 'transaction',
    amount: input.amount,
    currency: input.currency,
    cardNumber: input.payment_method?.number ?? null,
    customerEmail: input.customer?.email ?? null,
    metadata: input.metadata ?? null,
    paymentChannelCode: input.payment_method?.payment_channel_code ?? null,
    plan: null,
  };
}

/** What is stored of the payment method of a new payment, with the QR payload of a QR channel. */
export function paymentMethodOf(
  account: AccountIdentity,
  input: NewTransaction,
  charge: ChargeContext,
  id: string,
): StoredPaymentMethod | null {
  const pm = input.payment_method;
  let stored: StoredPaymentMethod | null;
  if (account.mode === 'direct') stored = charge.paymentMethodOnFile ?? (pm ? storedPaymentMethod(pm) : null);
  // Checkout: no card data from the merchant, ever. A subscription charges the card the
  // customer gave on its payment page (masked, on file); otherwise the requested channel is
  // kept so the page acts it out.
  else if (charge.paymentMethodOnFile?.card !== undefined) stored = charge.paymentMethodOnFile;
  else stored = pm?.payment_channel_code !== undefined ? { type: pm.type, payment_channel_code: pm.payment_channel_code } : null;
  const code = stored?.payment_channel_code;
  if (stored === null || code === undefined || paymentChannel(code)?.type !== 'qr') return stored;
  const qr = qrPayloadFor({ id, amount: input.amount, currency: input.currency, channelCode: code, merchantName: account.name });
  const { qr_payload: _old, ...rest } = stored;
  return qr === null ? rest : { ...rest, qr_payload: qr };
}
