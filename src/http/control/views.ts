/**
 * The control API's records: the /v4 formatter output of a row, extended with what the
 * panel would otherwise have to work out itself (the actions legal now, the refundable
 * amount, a delivery's state and reference, a logged error parsed). The rules for the
 * actions are the domain's own (`allowedActions`, `refundableAmount`, `subscriptionActions`).
 */
import { isoTimestamp } from '../../domain/clock.js';
import type { Delivery as DeliveryRow, Subscription as SubscriptionRow, Transaction as TransactionRow } from '../../domain/entities.js';
import type { RequestLogEntry as RequestLogRow } from '../ports.js';
import { subscriptionActions } from '../../domain/subscriptions.js';
import { allowedActions, refundableAmount } from '../../domain/transactions.js';
import type { Sandbox } from '../../sandbox.js';
import { deliveryView } from '../formatters/delivery.js';
import { refundView } from '../formatters/refund.js';
import { requestLogView } from '../formatters/request-log.js';
import { subscriptionView } from '../formatters/subscription.js';
import { transactionView } from '../formatters/transaction.js';
import type { ControlSubscription, ControlTransaction, Delivery, DeliveryState, RequestLogEntry, TransactionDetail } from './schemas.js';

/** A delivery's state as shown: a pending one is queued until its first attempt, then retrying. */
export function deliveryState(row: Pick<DeliveryRow, 'status' | 'attempts'>): DeliveryState {
  if (row.status === 'pending') return row.attempts > 0 ? 'retrying' : 'queued';
  return row.status;
}

/** The merchant's reference a webhook body carries, or null. */
function webhookReference(row: DeliveryRow): string | null {
  let body: unknown;
  try {
    body = JSON.parse(row.body);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[row.kind === 'refund' ? 'original_transaction_id' : 'merchant_transaction_id'];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A transaction with its refunds and the actions legal now. */
export function controlTransaction(sandbox: Sandbox, row: TransactionRow, mode: 'direct' | 'checkout'): ControlTransaction {
  return {
    ...transactionView(row, sandbox.baseUrl, mode),
    refunds: sandbox.stores.transactions.refundsOf(row.id).map(refundView),
    refundable_amount: refundableAmount(row),
    allowed_actions: allowedActions(row),
  };
}

/** A transaction of any account (its account's mode decides payment_url). */
export function controlTransactionOf(sandbox: Sandbox, row: TransactionRow): ControlTransaction {
  return controlTransaction(sandbox, row, sandbox.stores.accounts.byId(row.account_id)!.mode);
}

/** A delivery with its attempts, its shown state and its merchant reference. */
export function controlDelivery(sandbox: Sandbox, row: DeliveryRow): Delivery {
  return { ...deliveryView(row, sandbox.stores.deliveries.attemptsOf(row.id)), state: deliveryState(row), reference: webhookReference(row) };
}

/** A transaction with its scenario rule and deliveries. */
export function transactionDetail(sandbox: Sandbox, row: TransactionRow): TransactionDetail {
  return {
    ...controlTransactionOf(sandbox, row),
    scenario_rule: row.scenario_rule,
    deliveries: sandbox.stores.deliveries.forResource(row.id).map((d) => controlDelivery(sandbox, d)),
  };
}

/** A subscription with its charges (oldest first), the actions legal now and its next charge time. */
export function controlSubscription(sandbox: Sandbox, row: SubscriptionRow): ControlSubscription {
  const mode = sandbox.stores.accounts.byId(row.account_id)!.mode;
  return {
    ...subscriptionView(row, sandbox.baseUrl, mode),
    charges: sandbox.stores.transactions.forSubscription(row.id).map((tx) => controlTransaction(sandbox, tx, mode)),
    allowed_actions: subscriptionActions(row),
    next_charge_at: row.next_charge_at === null ? null : isoTimestamp(row.next_charge_at),
  };
}

/** The error envelope of a logged failed request, or null. */
function loggedError(row: RequestLogRow): RequestLogEntry['error'] {
  if (row.status < 400 || !row.response_body) return null;
  let body: unknown;
  try {
    body = JSON.parse(row.response_body);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const { code, message, details } = body as { code?: unknown; message?: unknown; details?: unknown };
  return {
    code: typeof code === 'string' ? code : 'error',
    message: typeof message === 'string' ? message : '',
    details: Array.isArray(details) ? (details as NonNullable<RequestLogEntry['error']>['details']) : [],
  };
}

/** A logged /v4 request with its error envelope parsed. */
export function requestLogEntry(row: RequestLogRow): RequestLogEntry {
  return { ...requestLogView(row), error: loggedError(row) };
}
