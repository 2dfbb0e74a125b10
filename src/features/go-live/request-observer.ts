/**
 * What the go-live report hears of each /v4 request (`go-live-tracker.ts`): it subscribes to
 * the request log's `LoggedRequest` (the route that matched, the status, a replay, card data,
 * the created record, a fault, whether the answer reached the client), and hears again a create
 * whose answer turned out not to have reached the client. Plus one cached read for a GET of a
 * transaction; it never reads the request log or a request's context.
 */
import type { Context } from 'hono';
import type { Clock } from '../../core/clock/clock.js';
import type { GoLiveTracker } from './go-live-tracker.js';
import type { ObservedRequest } from './go-live-observations.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { TransactionQueries } from '../transactions/index.js';
import type { ApiEnv } from '../../core/http/env.js';
import { exchangeOf } from '../../core/http/exchange.js';
import type { LoggedRequest, RequestListener } from '../../core/http/request-log.js';

/** The routes the report reads, as registered. */
const TRANSACTION_CREATE = '/v4/transactions';
const SUBSCRIPTION_CREATE = '/v4/subscriptions';
const REFUND_CREATE = '/v4/transactions/:transaction_id/refunds';
const TRANSACTION_READ = '/v4/transactions/:transaction_id';

/** The warning a subscription create gets for a top-level `notification_url`, which subscriptions do not take. */
export const IGNORED_SUBSCRIPTION_NOTIFICATION_URL =
  'notification_url is not a subscription field and was ignored: a subscription sends its webhooks to payment_method.webhooks_url';

/** Whether a body carries a top-level `notification_url`. */
const withNotificationUrl = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'notification_url');

/** Notes, in the request log's warnings, a top-level `notification_url` of a subscription create (subscriptions ignore it). */
export function warnIgnoredWebhookField(c: Context<ApiEnv>): void {
  if (withNotificationUrl(c.get('body'))) exchangeOf(c).warnings.push(IGNORED_SUBSCRIPTION_NOTIFICATION_URL);
}

/** The order fields of a transaction create's body. */
function orderOf(body: unknown): { amount: number; currency: string; external_identifier: string | null } | null {
  if (typeof body !== 'object' || body === null) return null;
  const { amount, currency, external_identifier: ext } = body as Record<string, unknown>;
  if (typeof amount !== 'number' || typeof currency !== 'string') return null;
  return { amount, currency, external_identifier: typeof ext === 'string' && ext.trim() !== '' ? ext : null };
}

/** What the observer reads: an account named by header, a read transaction's status, the clock. */
export interface GoLiveDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  transactions: Pick<TransactionQueries, 'byId'>;
  /** The go-live report's aggregates. */
  goLive: Pick<GoLiveTracker, 'request' | 'undelivered' | 'notTheMerchants'>;
  clock: Pick<Clock, 'nowMs'>;
}

/** The go-live report's subscriber of the request log: each logged /v4 request, and each create whose answer was lost after. */
export function goLiveObserver(deps: GoLiveDeps): RequestListener {
  return {
    logged: (request) => void observeRequest(deps, request),
    // Rare (the connection closed after the create was heard): the observation is made again
    // from the request, as it was heard, rather than kept for every create until then.
    undelivered: (request) => {
      if (!request.answerDelivered || request.notTheMerchants) return;
      const observed = observationOf(deps, request);
      if (observed === undefined || (observed.createdTransaction === null && observed.createdRefund === null)) return;
      deps.goLive.undelivered({ ...observed, answerDelivered: false });
    },
  };
}

/** Reports a logged /v4 request to the go-live report; returns what it observed (undefined when the request is not counted). */
export function observeRequest(deps: GoLiveDeps, request: LoggedRequest): ObservedRequest | undefined {
  // The conformance kit's requests test the sandbox, not the merchant's integration: what they
  // create is marked, so that its outcomes, refunds, renewals and deliveries are not heard either.
  if (request.notTheMerchants) {
    const createRoute = request.method === 'POST' ? request.route : null;
    const created = createRoute === TRANSACTION_CREATE || createRoute === SUBSCRIPTION_CREATE ? request.created : null;
    if (request.account !== undefined && created !== null) deps.goLive.notTheMerchants(request.account.id, created.id);
    return undefined;
  }
  const observed = observationOf(deps, request);
  if (observed !== undefined) deps.goLive.request(observed);
  return observed;
}

/** What the report reads of a merchant's logged /v4 request (undefined when it is not counted); reports nothing. */
function observationOf(deps: GoLiveDeps, request: LoggedRequest): ObservedRequest | undefined {
  const { account, method, route, status, executedStatus, replayed, body } = request;
  const createRoute = method === 'POST' ? route : null;
  // The account the headers name, read only when authentication found none.
  const named = account === undefined ? request.header('x-merchant-account-id') : undefined;
  const namedAccount = named !== undefined ? deps.accounts.byId(named) : undefined;
  const accountId = account?.id ?? namedAccount?.id ?? null;
  // A production key never authenticates: a request with an account was made with another key.
  const liveKey = account === undefined && /^Bearer\s+sk_live_/i.test(request.header('authorization') ?? '');
  if (accountId === null && !liveKey) return undefined;
  const mode = account?.mode ?? namedAccount?.mode;

  let create: ObservedRequest['create'] = null;
  let transactionId: string | null = null;
  if (createRoute === TRANSACTION_CREATE) create = 'transaction';
  else if (createRoute === SUBSCRIPTION_CREATE) create = 'subscription';
  else if (createRoute === REFUND_CREATE) {
    create = 'refund';
    transactionId = request.params.transaction_id ?? null;
  }
  const ran = executedStatus === 201 && !replayed ? request.created : null;
  const order = create === 'transaction' && ran !== null ? orderOf(body) : null;
  const createdTransaction: ObservedRequest['createdTransaction'] = order !== null && ran !== null ? { id: ran.id, ...order } : null;
  const createdRefund: ObservedRequest['createdRefund'] =
    create === 'refund' && ran !== null && ran.amount !== null && transactionId !== null
      ? { id: ran.id, transactionId, amount: ran.amount }
      : null;
  let readPending = false;
  if (method === 'GET' && route === TRANSACTION_READ && status === 200 && account) {
    transactionId = request.params.transaction_id ?? null;
    readPending = transactionId !== null && deps.transactions.byId(account.id, transactionId)?.status === 'PENDING';
  }
  const observed: ObservedRequest = {
    requestId: request.id,
    accountId,
    method,
    path: request.path,
    status,
    executedStatus,
    idempotencyKey: request.header('idempotency-key') ?? null,
    replayed,
    liveKey,
    cardDataInCheckout: mode === 'checkout' && method !== 'GET' && request.cardData(),
    ignoredWebhookField:
      create === 'subscription' && executedStatus >= 200 && executedStatus < 300 && !replayed && withNotificationUrl(body),
    fault: request.fault,
    retryAfterS: request.retryAfterS,
    create,
    createdTransaction,
    createdRefund,
    answerDelivered: request.answerDelivered,
    transactionId,
    readPending,
    fingerprint: request.fingerprint,
    atMs: request.arrivedAtMs,
    realMs: Date.now(),
  };
  return observed;
}
