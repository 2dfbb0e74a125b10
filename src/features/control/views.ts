/**
 * The control API's records: the /v4 formatter output of a row, extended with what the
 * panel would otherwise have to work out itself (the actions legal now, the refundable
 * amount, a delivery's state and reference, a logged error parsed). The rules for the
 * actions are the domain's own (`allowedActions`, `refundableAmount`, `subscriptionActions`).
 * Built over read-only query ports (`controlViews(ports)`), so a router given them cannot write.
 */
import { isoTimestamp } from '../../core/clock/clock.js';
import type {
  Delivery as DeliveryRow,
  Subscription as SubscriptionRow,
  Transaction as TransactionRow,
} from '../../core/domain/entities.js';
import type { RequestLogEntry as RequestLogRow } from '../../core/http/ports.js';
import { subscriptionActions } from '../subscriptions/index.js';
import { allowedActions, refundableAmount } from '../transactions/index.js';
import type { AccountQueries, DeliveryQueries, TransactionQueries } from '../../core/domain/queries.js';
import { deliveryView } from '../webhooks/index.js';
import { refundView } from '../transactions/index.js';
import { requestLogView } from './request-log-format.js';
import { subscriptionView } from '../subscriptions/index.js';
import { transactionView } from '../transactions/index.js';
import type { ControlSubscription } from '../subscriptions/index.js';
import type { ControlTransaction, TransactionDetail } from '../transactions/index.js';
import type { Delivery, DeliveryState } from '../webhooks/index.js';
import type { RequestLogEntry } from './control/requests.schemas.js';

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

/** What the views read: narrow query ports, and the base URL (set once the server listens). */
export interface ControlViewPorts {
  baseUrl(): string;
  accounts: Pick<AccountQueries, 'byId'>;
  transactions: Pick<TransactionQueries, 'refundsOf' | 'forSubscription'>;
  deliveries: Pick<DeliveryQueries, 'attemptsOf' | 'forResource'>;
}

/** The control records of rows, built over the query ports. */
export interface ControlViews {
  /** A transaction with its refunds and the actions legal now. */
  transaction(row: TransactionRow, mode: 'direct' | 'checkout'): ControlTransaction;
  /** A transaction of any account (its account's mode decides payment_url). */
  transactionOf(row: TransactionRow): ControlTransaction;
  /** A delivery with its attempts, its shown state and its merchant reference. */
  delivery(row: DeliveryRow): Delivery;
  /** A transaction with its scenario rule and deliveries. */
  transactionDetail(row: TransactionRow): TransactionDetail;
  /** A subscription with its charges (oldest first), the actions legal now and its next charge time. */
  subscription(row: SubscriptionRow): ControlSubscription;
}

/** The views over `ports`. */
export function controlViews(ports: ControlViewPorts): ControlViews {
  const modeOf = (accountId: string) => ports.accounts.byId(accountId)!.mode;
  const transaction = (row: TransactionRow, mode: 'direct' | 'checkout'): ControlTransaction => ({
    ...transactionView(row, ports.baseUrl(), mode),
    refunds: ports.transactions.refundsOf(row.id).map(refundView),
    refundable_amount: refundableAmount(row),
    allowed_actions: allowedActions(row),
  });
  const transactionOf = (row: TransactionRow) => transaction(row, modeOf(row.account_id));
  const delivery = (row: DeliveryRow): Delivery => ({
    ...deliveryView(row, ports.deliveries.attemptsOf(row.id)),
    state: deliveryState(row),
    reference: webhookReference(row),
  });
  return {
    transaction,
    transactionOf,
    delivery,
    transactionDetail: (row) => ({
      ...transactionOf(row),
      scenario_rule: row.scenario_rule,
      deliveries: ports.deliveries.forResource(row.id).map(delivery),
    }),
    subscription: (row) => {
      const mode = modeOf(row.account_id);
      return {
        ...subscriptionView(row, ports.baseUrl(), mode),
        charges: ports.transactions.forSubscription(row.id).map((tx) => transaction(tx, mode)),
        allowed_actions: subscriptionActions(row),
        next_charge_at: row.next_charge_at === null ? null : isoTimestamp(row.next_charge_at),
      };
    },
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
