/**
 * What the go-live report hears of each /v4 request (`domain/go-live-tracker.ts`): the
 * request log calls `observeRequest` once the request is logged. It reads only what this
 * request carried and what the route answered (before a fault lost the answer), plus one
 * cached read for a GET of a transaction; it never reads the request log.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Clock } from '../../core/clock/clock.js';
import type { GoLiveTracker, ObservedRequest } from './go-live-tracker.js';
import type { AccountQueries, TransactionQueries } from '../../core/domain/queries.js';
import type { ApiEnv } from '../../core/http/env.js';
import { FAULT_HEADER, parseFault, type ApiFaults } from '../../core/http/faults.js';
import { canonicalJson } from '../../core/http/idempotency.js';
import type { RequestObserver } from '../../core/http/request-log.js';

const CREATE = /^\/v4\/(transactions|subscriptions)\/?$/;
const REFUND = /^\/v4\/transactions\/([^/]+)\/refunds\/?$/;
const TRANSACTION = /^\/v4\/transactions\/([0-9a-fA-F-]{36})\/?$/;

/** Whether a parsed body carries card data in its payment method. */
function carriesCardData(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const pm = (body as { payment_method?: unknown }).payment_method;
  if (typeof pm !== 'object' || pm === null) return false;
  const { number, security_code: code } = pm as { number?: unknown; security_code?: unknown };
  return (number !== undefined && number !== null) || (code !== undefined && code !== null);
}

/** The order fields of a transaction create's body. */
function orderOf(body: unknown): { amount: number; currency: string; external_identifier: string | null } | null {
  if (typeof body !== 'object' || body === null) return null;
  const { amount, currency, external_identifier: ext } = body as Record<string, unknown>;
  if (typeof amount !== 'number' || typeof currency !== 'string') return null;
  return { amount, currency, external_identifier: typeof ext === 'string' ? ext : null };
}

/** What `observeRequest` reads: an account named by header, a read transaction's status, the faults played, the clock. */
export interface GoLiveDeps {
  accounts: Pick<AccountQueries, 'byId'>;
  transactions: Pick<TransactionQueries, 'byId'>;
  /** The go-live report's aggregates. */
  goLive: Pick<GoLiveTracker, 'request'>;
  clock: Pick<Clock, 'nowMs'>;
  /** The faults played on a request (`ApiFaults.playedOn` of the same app). */
  faultPlayedOn: ApiFaults['playedOn'];
}

/** The go-live report's observer of the request log: it hears each logged /v4 request. */
export function goLiveObserver(deps: GoLiveDeps): RequestObserver {
  return (c, requestId, path, loggedBody) => observeRequest(deps, c, requestId, path, loggedBody);
}

/**
 * Reports a logged /v4 request to the go-live report.
 * @param requestId its request-log id
 * @param path the logged path (with its query, secrets redacted)
 * @param loggedBody the request body as logged (used when the body did not parse)
 */
export async function observeRequest(deps: GoLiveDeps, c: Context<ApiEnv>, requestId: number, path: string, loggedBody: string | null): Promise<void> {
  const account = c.get('account') as ApiEnv['Variables']['account'] | undefined;
  const named = c.req.header('x-merchant-account-id');
  const accountId = account?.id ?? (named !== undefined && deps.accounts.byId(named) ? named : null);
  if (accountId === null) return;
  const method = c.req.method;
  const bare = c.req.path;
  const played = deps.faultPlayedOn(c);
  const executed = played?.executed ?? c.res;
  const status = c.res.status;
  const replayed = c.get('replayed');
  const body: unknown = c.get('body');
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
      // A keyed create's JSON text is at hand; cloning the response to read it cost a stream tee per create.
      const text = c.get('answerJson');
      const answer = (text !== undefined ? JSON.parse(text) : await executed.clone().json()) as { id?: unknown };
      if (order && typeof answer.id === 'string') createdTransaction = { id: answer.id, ...order };
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
  deps.goLive.request({
    requestId,
    accountId,
    method,
    path: bare,
    status,
    executedStatus: executed.status,
    idempotencyKey: c.req.header('idempotency-key') ?? null,
    replayed,
    liveKey: /^Bearer\s+sk_live_/i.test(c.req.header('authorization') ?? ''),
    cardDataInCheckout: account?.mode === 'checkout' && create !== null && create !== 'refund' && carriesCardData(body),
    fault: (header !== undefined && parseFault(header) !== null) || played !== undefined,
    retryAfterS: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    create,
    createdTransaction,
    transactionId,
    readPending,
    fingerprint: () =>
      (fingerprint ??= createHash('sha256')
        .update(`${method} ${path}\n${body !== undefined ? canonicalJson(body) : (loggedBody ?? '')}`)
        .digest('hex')),
    atMs: deps.clock.nowMs(),
    realMs: Date.now(),
  });
}
