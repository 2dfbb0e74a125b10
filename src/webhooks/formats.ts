/**
 * The wire format of the two webhook bodies (spec "Events": payment webhook, refund
 * webhook). This is the one place their field names, key order and value formats live;
 * the outbox stores what these functions return and the dispatcher sends it as is.
 *
 * Sandbox decision: settlement happens in the payment currency, so the payment webhook's
 * `exchange_rate` is "1.000000" and `settlement_amount` equals `payment_amount`.
 */

import { currencyExponent, toMajorUnits } from '../domain/money.js';
import { compactDate, compactTimestamp } from './time.js';

/** The exchange rate of a settlement in the payment currency (six decimals). */
const SAME_CURRENCY_EXCHANGE_RATE = '1.000000';

/** Webhook amounts are whole minor units, never negative, in a known currency. */
function checkAmount(amount: number, currency: string): void {
  currencyExponent(currency);
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`A webhook amount must be a non-negative integer, got ${amount}`);
  }
}

/** Terminal payment statuses that produce a payment webhook. */
export type PaymentWebhookStatus = 'SUCCEEDED' | 'FAILED';

/** Body of the payment webhook (scope webhooks.payment). All payment_data values are strings. */
export interface PaymentWebhookBody {
  ll_transaction_id: string;
  merchant_transaction_id: string;
  payment_data: {
    account_date: string;
    exchange_rate: string;
    payment_amount: string;
    payment_currency_code: string;
    payment_status: PaymentWebhookStatus;
    payment_time: string;
    settlement_amount: string;
    settlement_currency_code: string;
  };
}

/** Body of the refund webhook (scope webhooks.refund). Amounts are integers in minor units. */
export interface RefundWebhookBody {
  ll_transaction_id: string;
  merchant_transaction_id: string;
  original_transaction_id: string;
  refund_data: {
    account_date: string;
    actual_refund_amount: number;
    actual_refund_currency_code: string;
    reason: string;
    refund_amount: number;
    refund_currency_code: string;
    refund_status: 'SUCCESS';
    refund_time: string;
    settlement_currency_code: string;
  };
}

export interface PaymentWebhookInput {
  /** The sandbox's payment id. */
  llTransactionId: string;
  /** The merchant's external_identifier of the payment. */
  merchantTransactionId: string;
  /** Integer amount in minor units. */
  amount: number;
  currency: string;
  status: PaymentWebhookStatus;
  /** When the payment reached its terminal status. */
  at: Date;
  /** IANA zone for account_date and payment_time (the same as the `timezone` header). */
  timeZone: string;
}

export interface RefundWebhookInput {
  /** The sandbox's refund id. */
  llTransactionId: string;
  /** The refund's external_identifier, or its id when it has none. */
  merchantTransactionId: string;
  /** The payment's merchant reference (its external_identifier). */
  originalTransactionId: string;
  /** Integer amount in minor units. */
  amount: number;
  currency: string;
  reason: string;
  /** When the refund succeeded. */
  at: Date;
  /** IANA zone for account_date and refund_time (the same as the `timezone` header). */
  timeZone: string;
}

/**
 * The payment webhook body for a payment that reached SUCCEEDED or FAILED, with the
 * spec's key order; amounts are decimal strings in major units (USD 1050 -> "10.50").
 * @throws RangeError on an unknown currency, an amount that is not a non-negative integer,
 *   or an invalid zone.
 */
export function paymentWebhookBody(input: PaymentWebhookInput): PaymentWebhookBody {
  checkAmount(input.amount, input.currency);
  const amount = toMajorUnits(input.amount, input.currency);
  return {
    ll_transaction_id: input.llTransactionId,
    merchant_transaction_id: input.merchantTransactionId,
    payment_data: {
      account_date: compactDate(input.at, input.timeZone),
      exchange_rate: SAME_CURRENCY_EXCHANGE_RATE,
      payment_amount: amount,
      payment_currency_code: input.currency,
      payment_status: input.status,
      payment_time: compactTimestamp(input.at, input.timeZone),
      settlement_amount: amount,
      settlement_currency_code: input.currency,
    },
  };
}

/**
 * The refund webhook body for a successful refund, with the spec's key order; amounts are
 * integers in minor units and the refund settles in its own currency.
 * @throws RangeError on an unknown currency, an amount that is not a non-negative integer,
 *   or an invalid zone.
 */
export function refundWebhookBody(input: RefundWebhookInput): RefundWebhookBody {
  checkAmount(input.amount, input.currency);
  return {
    ll_transaction_id: input.llTransactionId,
    merchant_transaction_id: input.merchantTransactionId,
    original_transaction_id: input.originalTransactionId,
    refund_data: {
      account_date: compactDate(input.at, input.timeZone),
      actual_refund_amount: input.amount,
      actual_refund_currency_code: input.currency,
      reason: input.reason,
      refund_amount: input.amount,
      refund_currency_code: input.currency,
      refund_status: 'SUCCESS',
      refund_time: compactTimestamp(input.at, input.timeZone),
      settlement_currency_code: input.currency,
    },
  };
}
