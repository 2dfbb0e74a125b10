/**
 * The wire format of each resource, in one place: stored rows in, the API's JSON out.
 * Used by the /v4 routes, the control API and the change feed alike.
 */
import { isoTimestamp } from '../domain/clock.js';
import type { BuyerRow } from '../store/buyers.js';
import type { AttemptRow, DeliveryRow } from '../store/deliveries.js';
import type { RequestLogRow } from '../store/request-log.js';
import type { RefundRow, TransactionRow } from '../store/transactions.js';
import type { StoredPaymentMethod } from '../domain/transactions.js';

const parse = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T));

export interface TransactionView {
  type: 'transaction';
  id: string;
  merchant_account_id: string;
  status: TransactionRow['status'];
  amount: number;
  currency: string;
  refunded_amount: number;
  description: string | null;
  customer: { email?: string; name?: string } | null;
  external_identifier: string | null;
  notification_url: string | null;
  return_url: string | null;
  cancel_url: string | null;
  metadata: Record<string, string> | null;
  payment_method: StoredPaymentMethod | null;
  payment_url: string | null;
  subscription_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A transaction record; `payment_url` is set for checkout accounts (`mode`). */
export function transactionView(row: TransactionRow, baseUrl: string, mode: 'direct' | 'checkout'): TransactionView {
  return {
    type: 'transaction',
    id: row.id,
    merchant_account_id: row.account_id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    refunded_amount: row.refunded_amount,
    description: row.description,
    customer: parse(row.customer),
    external_identifier: row.external_identifier,
    notification_url: row.notification_url,
    return_url: row.return_url,
    cancel_url: row.cancel_url,
    metadata: parse(row.metadata),
    payment_method: parse(row.payment_method),
    payment_url: mode === 'checkout' ? `${baseUrl}/pay/${row.id}` : null,
    subscription_id: row.subscription_id,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export interface RefundView {
  type: 'refund';
  id: string;
  transaction_id: string;
  status: 'SUCCESS';
  amount: number;
  currency: string;
  reason: string | null;
  external_identifier: string | null;
  created_at: string;
  updated_at: string;
}

export function refundView(row: RefundRow): RefundView {
  return {
    type: 'refund',
    id: row.id,
    transaction_id: row.transaction_id,
    status: 'SUCCESS',
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    external_identifier: row.external_identifier,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export interface BuyerView {
  type: 'buyer';
  id: string;
  merchant_account_id: string;
  display_name: string | null;
  external_identifier: string | null;
  created_at: string;
  updated_at: string;
}

export function buyerView(row: BuyerRow): BuyerView {
  return {
    type: 'buyer',
    id: row.id,
    merchant_account_id: row.account_id,
    display_name: row.display_name,
    external_identifier: row.external_identifier,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export function attemptView(row: AttemptRow) {
  return {
    number: row.number,
    at: isoTimestamp(row.at),
    url: row.url,
    request_headers: JSON.parse(row.request_headers) as Record<string, string>,
    request_body: row.request_body,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
    duration_ms: row.duration_ms,
    ok: row.ok === 1,
  };
}

export function deliveryView(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: row.id,
    merchant_account_id: row.account_id,
    kind: row.kind,
    resource_id: row.resource_id,
    url: row.url,
    status: row.status,
    attempts_count: row.attempts,
    next_attempt_at: row.next_attempt_at === null ? null : isoTimestamp(row.next_attempt_at),
    body: row.body,
    created_at: isoTimestamp(row.created_at),
    delivered_at: row.delivered_at === null ? null : isoTimestamp(row.delivered_at),
    attempts: attempts.map(attemptView),
  };
}

export function requestLogView(row: RequestLogRow) {
  return {
    id: row.seq,
    merchant_account_id: row.account_id,
    method: row.method,
    path: row.path,
    status: row.status,
    idempotency_key: row.idempotency_key,
    replayed: row.replayed === 1,
    duration_ms: row.duration_ms,
    request_body: row.request_body,
    response_body: row.response_body,
    warnings: parse<string[]>(row.warnings) ?? [],
    at: isoTimestamp(row.at),
  };
}
