/**
 * The wire format of every webhook body. This is the one place their field names, key order
 * and value formats live; the outbox stores what these functions return and the dispatcher
 * sends it as is.
 *
 * - `spec` format (the default, what production sends): the spec's two bodies ("Events":
 *   payment webhook, refund webhook).
 * - `event` format (`--webhook-format event`): the shape of the spec overview's sample
 *   handler, `{"id","type","created_at","data":{"transaction":{...}}}` with the types
 *   `transaction.completed`, `transaction.failed` and `refund.completed`. Its transaction and refund are the API's records, built by the
 *   shared wire-format module (`wire/`) the HTTP formatters use too.
 *
 * Settlement: a payment settles in `--settlement-currency` at the
 * fixed sandbox rates of `domain/settlement.ts`, or in its own currency at "1.000000" when
 * none is set or the pair has no sandbox rate.
 */

import { isoTimestamp } from '../../core/clock/clock.js';
import type { Refund, Transaction } from './entities.js';
import { currencyExponent, toMajorUnits } from '../../core/domain/money.js';
import { isSettlementCurrency, settle, type Settlement } from '../../core/domain/settlement.js';
import { refundView, type RefundResponse } from './refund-format.js';
import { pickFields, transactionRecord, type TransactionResponse } from './transaction-format.js';
import { compactDate, compactTimestamp } from '../../core/webhooks/time.js';

/** Which webhook bodies the sandbox sends: the spec's (default) or the overview's event shape. */
export type WebhookFormat = 'spec' | 'event';

/**
 * The settlement of `amount` (minor units of `currency`) in `settlementCurrency`: at the
 * fixed sandbox rates when both currencies have one, otherwise in the payment's own currency
 * at "1.000000" (no settlement currency asked for, or a currency without a sandbox rate).
 */
export function settlementOf(amount: number, currency: string, settlementCurrency: string | undefined): Settlement {
  const target =
    settlementCurrency && isSettlementCurrency(settlementCurrency) && isSettlementCurrency(currency) ? settlementCurrency : currency;
  return settle(amount, currency, target);
}

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
  /** `--settlement-currency`; absent: the payment's own currency. */
  settlementCurrency?: string;
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
  /** `--settlement-currency`; absent: the refund's own currency. */
  settlementCurrency?: string;
}

/**
 * The payment webhook body for a payment that reached SUCCEEDED or FAILED, with the
 * spec's key order; amounts are decimal strings in major units (USD 1050 -> "10.50"), the
 * settlement amount in the settlement currency's (USD 1050 settled in THB -> "378.00").
 * @throws RangeError on an unknown currency, an amount that is not a non-negative integer,
 *   or an invalid zone.
 */
export function paymentWebhookBody(input: PaymentWebhookInput): PaymentWebhookBody {
  checkAmount(input.amount, input.currency);
  const settlement = settlementOf(input.amount, input.currency, input.settlementCurrency);
  return {
    ll_transaction_id: input.llTransactionId,
    merchant_transaction_id: input.merchantTransactionId,
    payment_data: {
      account_date: compactDate(input.at, input.timeZone),
      exchange_rate: settlement.exchange_rate,
      payment_amount: toMajorUnits(input.amount, input.currency),
      payment_currency_code: input.currency,
      payment_status: input.status,
      payment_time: compactTimestamp(input.at, input.timeZone),
      settlement_amount: toMajorUnits(settlement.settlement_amount, settlement.settlement_currency_code),
      settlement_currency_code: settlement.settlement_currency_code,
    },
  };
}

/**
 * The refund webhook body for a successful refund, with the spec's key order; amounts are
 * integers in minor units of the refund's currency (the body has no settlement amount);
 * `settlement_currency_code` is the settlement currency of the payment it refunds.
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
      settlement_currency_code: settlementOf(input.amount, input.currency, input.settlementCurrency).settlement_currency_code,
    },
  };
}

// --- the event format (the spec overview's handler) ---

/** The event types of the event format. */
export type WebhookEventType = 'transaction.completed' | 'transaction.failed' | 'refund.completed';

/** The fields of the API's transaction record an event carries, in its key order. */
const EVENT_TRANSACTION_FIELDS = [
  'type',
  'id',
  'merchant_account_id',
  'status',
  'amount',
  'currency',
  'refunded_amount',
  'description',
  'external_identifier',
  'metadata',
  'payment_method',
  'subscription_id',
] as const;

/**
 * A transaction inside an event: the fields of the API's transaction record a handler acts on
 * (amounts in minor units, timestamps ISO 8601), and its settlement figures.
 */
export interface EventTransaction extends Pick<
  TransactionResponse,
  (typeof EVENT_TRANSACTION_FIELDS)[number] | 'created_at' | 'updated_at'
> {
  /** Units of the settlement currency per unit of `currency`, six decimals. */
  exchange_rate: string;
  /** In minor units of `settlement_currency_code`. */
  settlement_amount: number;
  settlement_currency_code: string;
}

/** A refund inside a `refund.completed` event: the API's refund record. */
export type EventRefund = RefundResponse;

/** The body of an event-format webhook. */
export interface EventWebhookBody {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: { transaction: EventTransaction; refund?: EventRefund };
}

export interface TransactionEventInput {
  /** The event's id: stays the same over retries and resends of the delivery. */
  eventId: string;
  /** The transaction as it is after the change the event reports. */
  transaction: Transaction;
  /** When the event happened (sandbox clock). */
  at: Date;
  settlementCurrency?: string;
}

function eventTransaction(tx: Transaction, settlementCurrency: string | undefined): EventTransaction {
  checkAmount(tx.amount, tx.currency);
  const settlement = settlementOf(tx.amount, tx.currency, settlementCurrency);
  const record = transactionRecord(tx, null);
  return {
    ...pickFields(record, EVENT_TRANSACTION_FIELDS),
    exchange_rate: settlement.exchange_rate,
    settlement_amount: settlement.settlement_amount,
    settlement_currency_code: settlement.settlement_currency_code,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/**
 * The event of a payment outcome: `transaction.completed` for SUCCEEDED, `transaction.failed`
 * for FAILED, the transaction under `data.transaction`.
 * @throws Error for a transaction still PENDING; RangeError for an unknown currency.
 */
export function transactionEventBody(input: TransactionEventInput): EventWebhookBody {
  const { transaction: tx } = input;
  if (tx.status === 'PENDING') throw new Error('a payment event needs a terminal status');
  return {
    id: input.eventId,
    type: tx.status === 'SUCCEEDED' ? 'transaction.completed' : 'transaction.failed',
    created_at: isoTimestamp(input.at.getTime()),
    data: { transaction: eventTransaction(tx, input.settlementCurrency) },
  };
}

/**
 * The `refund.completed` event of a successful refund: the refunded transaction (its
 * `refunded_amount` including this refund) under `data.transaction`, the refund under `data.refund`.
 * @throws RangeError for an unknown currency or an amount that is not a non-negative integer.
 */
export function refundEventBody(input: TransactionEventInput & { refund: Refund }): EventWebhookBody {
  const { refund } = input;
  checkAmount(refund.amount, refund.currency);
  return {
    id: input.eventId,
    type: 'refund.completed',
    created_at: isoTimestamp(input.at.getTime()),
    data: {
      transaction: eventTransaction(input.transaction, input.settlementCurrency),
      refund: refundView(refund),
    },
  };
}
