/**
 * What the go-live report hears of each /v4 request (`go-live-tracker.ts`): the request log
 * calls `observeRequest` once the request is logged, and tells again a create whose answer
 * turned out not to have reached the client. It reads only what this
 * request carried and what the route answered (before a fault lost the answer), plus one
 * cached read for a GET of a transaction; it never reads the request log.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Clock } from '../../core/clock/clock.js';
import type { GoLiveTracker } from './go-live-tracker.js';
import type { ObservedRequest } from './go-live-observations.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { TransactionQueries } from '../transactions/index.js';
import type { ApiEnv } from '../../core/http/env.js';
import { FAULT_HEADER, parseFault, type ApiFaults } from '../../core/http/faults.js';
import { canonicalBody, canonicalJson } from '../../core/http/idempotency.js';
import type { RequestObserver } from '../../core/http/request-log.js';
import { carriesCardData as parsedCarriesCardData, holdsCardNumber } from '../../core/http/redact.js';
import { redactSecurityCodes } from '../../core/redaction/card-data.js';
import { isConformanceUserAgent } from '../../core/sandbox-client.js';

const CREATE = /^\/v4\/(transactions|subscriptions)\/?$/;
const REFUND = /^\/v4\/transactions\/([^/]+)\/refunds\/?$/;
const TRANSACTION = /^\/v4\/transactions\/([0-9a-fA-F-]{36})\/?$/;

/** Whether a body (parsed, or its text when it did not parse) carries a card number or a security code, under any field name. */
export function carriesCardData(body: unknown, text: string | null): boolean {
  if (body === undefined) return text !== null && (holdsCardNumber(text) || redactSecurityCodes(text) !== text);
  return parsedCarriesCardData(body);
}

/** The body as JSON when it parses, else undefined. */
function parsedOrUndefined(text: string | null): unknown {
  if (text === null || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The warning a subscription create gets for a top-level `notification_url`, which subscriptions do not take. */
export const IGNORED_SUBSCRIPTION_NOTIFICATION_URL =
  'notification_url is not a subscription field and was ignored: a subscription sends its webhooks to payment_method.webhooks_url';

/** Whether a request is a subscription create whose body carries a top-level `notification_url`. */
function subscriptionWithNotificationUrl(method: string, path: string, body: unknown): boolean {
  if (method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const match = CREATE.exec(path);
  return match !== null && match[1] === 'subscriptions' && Object.hasOwn(body, 'notification_url');
}

/** Notes, in the request log's warnings, a webhook field the request carried that its resource ignores. */
export function warnIgnoredWebhookField(c: Context<ApiEnv>): void {
  if (subscriptionWithNotificationUrl(c.req.method, c.req.path, c.get('body')))
    c.get('warnings').push(IGNORED_SUBSCRIPTION_NOTIFICATION_URL);
}

/** The id of the record a create made, from the value it answered (not a replay, nor a create a fault stopped). */
function createdId(c: Context<ApiEnv>): string | undefined {
  const answered: unknown = c.get('answer');
  if (c.get('replayed') || answered === null || typeof answered !== 'object') return undefined;
  const { id } = answered as { id?: unknown };
  return typeof id === 'string' ? id : undefined;
}

/** The order fields of a transaction create's body. */
function orderOf(body: unknown): { amount: number; currency: string; external_identifier: string | null } | null {
  if (typeof body !== 'object' || body === null) return null;
  const { amount, currency, external_identifier: ext } = body as Record<string, unknown>;
  if (typeof amount !== 'number' || typeof currency !== 'string') return null;
  return { amount, currency, external_identifier: typeof ext === 'string' && ext.trim() !== '' ? ext : null };
}

/** What `observeRequest` reads: an account named by header, a read transaction's status, the faults played, the clock. */
export interface GoLiveDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  transactions: Pick<TransactionQueries, 'byId'>;
  /** The go-live report's aggregates. */
  goLive: Pick<GoLiveTracker, 'request' | 'undelivered' | 'notTheMerchants'>;
  clock: Pick<Clock, 'nowMs'>;
  /** The faults played on a request (`ApiFaults.playedOn` of the same app). */
  faultPlayedOn: ApiFaults['playedOn'];
}

/** The go-live report's observer of the request log: it hears each logged /v4 request, and each create whose answer was lost after. */
export function goLiveObserver(deps: GoLiveDeps): RequestObserver {
  // The creates heard with their answer delivered, until the request is gone: told again if it was lost after all.
  const answered = new WeakMap<Context<ApiEnv>, ObservedRequest>();
  return {
    logged: async (c, requestId, path, loggedBody) => {
      const observed = await observeRequest(deps, c, requestId, path, loggedBody);
      if (observed?.answerDelivered && (observed.createdTransaction !== null || observed.createdRefund !== null)) answered.set(c, observed);
    },
    undelivered: (c) => {
      const observed = answered.get(c);
      if (observed === undefined) return;
      answered.delete(c);
      deps.goLive.undelivered({ ...observed, answerDelivered: false });
    },
  };
}

/**
 * Reports a logged /v4 request to the go-live report.
 * @param requestId its request-log id
 * @param path the logged path (with its query, secrets redacted)
 * @param loggedBody the request body as logged (used when the body did not parse)
 */
export async function observeRequest(
  deps: GoLiveDeps,
  c: Context<ApiEnv>,
  requestId: number,
  path: string,
  loggedBody: string | null,
): Promise<ObservedRequest | undefined> {
  const account = c.get('account') as ApiEnv['Variables']['account'] | undefined;
  // The conformance kit's requests test the sandbox, not the merchant's integration: what they
  // create is marked, so that its outcomes, refunds, renewals and deliveries are not heard either.
  if (isConformanceUserAgent(c.req.header('user-agent'))) {
    const created = account !== undefined && c.req.method === 'POST' && CREATE.test(c.req.path) ? createdId(c) : undefined;
    if (created !== undefined) deps.goLive.notTheMerchants(account!.id, created);
    return undefined;
  }
  const named = c.req.header('x-merchant-account-id');
  const namedAccount = account === undefined && named !== undefined ? deps.accounts.byId(named) : undefined;
  const accountId = account?.id ?? namedAccount?.id ?? null;
  const liveKey = /^Bearer\s+sk_live_/i.test(c.req.header('authorization') ?? '');
  if (accountId === null && !liveKey) return undefined;
  const mode = account?.mode ?? namedAccount?.mode;
  const method = c.req.method;
  const bare = c.req.path;
  const played = deps.faultPlayedOn(c);
  const executed = played?.executed ?? c.res;
  const status = c.res.status;
  const replayed = c.get('replayed');
  // The body as parsed; when the route never read it (a fault, a refusal first), its text.
  const parsed: unknown = c.get('body');
  let rawText: string | null = null;
  if (parsed === undefined && method !== 'GET' && method !== 'HEAD') {
    try {
      rawText = await c.req.text();
    } catch {
      rawText = null;
    }
  }
  const body: unknown = parsed ?? parsedOrUndefined(rawText);
  const header = c.req.header(FAULT_HEADER);

  let create: ObservedRequest['create'] = null;
  let transactionId: string | null = null;
  if (method === 'POST') {
    const created = CREATE.exec(bare);
    const refund = REFUND.exec(bare);
    if (created) create = created[1] === 'transactions' ? 'transaction' : 'subscription';
    else if (refund) {
      create = 'refund';
      transactionId = refund[1]!;
    }
  }
  let createdTransaction: ObservedRequest['createdTransaction'] = null;
  if (create === 'transaction' && executed.status === 201 && !replayed) {
    const order = orderOf(body);
    try {
      // The created record is at hand as the value answered: neither a clone of the response nor a parse of its text.
      const answered: unknown = c.get('answer');
      const answer = (answered !== null && typeof answered === 'object' ? answered : await executed.clone().json()) as { id?: unknown };
      if (order && typeof answer.id === 'string') createdTransaction = { id: answer.id, ...order };
    } catch {
      // not JSON: nothing to track
    }
  }
  let createdRefund: ObservedRequest['createdRefund'] = null;
  if (create === 'refund' && executed.status === 201 && !replayed && transactionId !== null) {
    try {
      const answered: unknown = c.get('answer');
      const answer = (answered !== null && typeof answered === 'object' ? answered : await executed.clone().json()) as {
        id?: unknown;
        amount?: unknown;
      };
      if (typeof answer.id === 'string' && typeof answer.amount === 'number')
        createdRefund = { id: answer.id, transactionId, amount: answer.amount };
    } catch {
      // not JSON: nothing to track
    }
  }
  let readPending = false;
  if (method === 'GET' && status === 200 && account) {
    const read = TRANSACTION.exec(bare);
    if (read) {
      transactionId = read[1]!;
      readPending = deps.transactions.byId(account.id, transactionId)?.status === 'PENDING';
    }
  }
  let fingerprint: string | undefined;
  const retryAfter = status === 429 ? Number(c.res.headers.get('retry-after')) : NaN;
  const observed: ObservedRequest = {
    requestId,
    accountId,
    method,
    path: bare,
    status,
    executedStatus: executed.status,
    idempotencyKey: c.req.header('idempotency-key') ?? null,
    replayed,
    liveKey,
    // The request log's scan of the parsed body said whether it carries card data: not scanned again.
    cardDataInCheckout:
      mode === 'checkout' &&
      method !== 'GET' &&
      (parsed !== undefined && c.get('cardData') !== undefined
        ? c.get('cardData')!
        : carriesCardData(body, body === undefined ? rawText : null)),
    ignoredWebhookField:
      executed.status >= 200 && executed.status < 300 && !replayed && subscriptionWithNotificationUrl(method, bare, body),
    fault: (header !== undefined && parseFault(header) !== null) || played !== undefined,
    retryAfterS: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    create,
    createdTransaction,
    createdRefund,
    answerDelivered: !c.get('answerLost'),
    transactionId,
    readPending,
    // A keyed request's idempotency fingerprint hashed the same text (bare path, canonical body): not hashed twice.
    fingerprint: () =>
      (fingerprint ??=
        parsed !== undefined && path === bare && c.get('requestFingerprint') !== undefined
          ? c.get('requestFingerprint')!
          : createHash('sha256')
              .update(
                `${method} ${path}\n${parsed !== undefined ? canonicalBody(c) : body !== undefined ? canonicalJson(body) : (rawText ?? loggedBody ?? '')}`,
              )
              .digest('hex')),
    atMs: c.get('arrivedAt') ?? deps.clock.nowMs(),
    realMs: Date.now(),
  };
  deps.goLive.request(observed);
  return observed;
}
