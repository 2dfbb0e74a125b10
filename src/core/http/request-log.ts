/**
 * Records every /v4 call in the request log (method, path, status, idempotency key, replayed,
 * duration, bodies of failures, warnings such as ignored unknown fields), for the panel.
 * Card numbers are masked and security codes dropped before anything is stored (redact.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { ChangeType } from '../domain/events.js';
import type { ApiEnv } from './env.js';
import type { Clock } from '../clock/clock.js';
import type { RequestLogRepo } from './ports.js';
import { isSecurityCodeKey } from '../redaction/card-data.js';
import { redactText, scannedBody } from './redact.js';
import { holdsSecret, redactSecrets } from '../redaction/secrets.js';
import { isConformanceUserAgent } from '../sandbox-client.js';

const MAX_LOGGED_BODY = 16 * 1024;

/** Query parameters whose values are secrets, whatever they hold. */
const SECRET_PARAMS = /^(api[_-]?key|key|token|access[_-]?token|auth|authorization|secret|password|jwt)$/i;

/**
 * A query that URLSearchParams would write back unchanged (`name=value` pairs of unreserved
 * characters only), e.g. `limit=20&cursor=eyJkIjoiYSJ9`.
 */
const PLAIN_QUERY = /^[\w.*-]+=[\w.*-]*(?:&[\w.*-]+=[\w.*-]*)*$/;

/** Whether a plain query's text holds card data (a card number, a security-code key with a value). */
const holdsCardData = (text: string): boolean => redactText(text) !== text;

/** Text as logged: card data masked (`redact.ts`) and every secret (`../redaction/secrets.ts`) replaced. */
const loggedText = (text: string): string => redactSecrets(redactText(text));

/**
 * The request's path and query as logged: secret parameters and API keys or JWTs in any value
 * are replaced by `[redacted]`; card numbers are masked and security-code parameters
 * redacted, in the path and the query, whatever their encoding.
 */
export function loggedPath(path: string, url: string): string {
  const safePath = loggedText(path);
  const at = url.indexOf('?');
  if (at < 0) return safePath;
  const query = url.slice(at + 1);
  // Most queries (a page's limit and cursor) are plain and hold no secret: logged as they are.
  if (
    PLAIN_QUERY.test(query) &&
    !holdsSecret(query) &&
    !query.split('&').some((pair) => SECRET_PARAMS.test(pair.slice(0, pair.indexOf('=')))) &&
    !holdsCardData(query)
  ) {
    return `${safePath}?${query}`;
  }
  const params = new URLSearchParams(query);
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    const secret = SECRET_PARAMS.test(name) || isSecurityCodeKey(name);
    out.append(loggedText(name), secret ? '[redacted]' : loggedText(value));
  }
  const written = out
    .toString()
    .replace(/%5Bredacted%5D/g, '[redacted]')
    .replace(/%5Bredacted(?:\+|%20)JWT%5D/g, '[redacted JWT]')
    .replace(/%E2%80%A2/g, '•');
  return written ? `${safePath}?${written}` : safePath;
}

/** A header value as logged (`Idempotency-Key`, `X-Merchant-Account-Id`): card data masked, secrets replaced. */
const loggedHeader = (value: string | undefined): string | null => (value === undefined ? null : loggedText(value));

/**
 * The request body as logged: the parsed body redacted, or the raw text redacted when it did
 * not parse. The scan of a parsed body also notes whether it carries card data (`cardData`).
 */
async function loggedRequestBody(c: Context<ApiEnv>): Promise<string | null> {
  if (c.req.method === 'GET') return null;
  if (c.get('body') !== undefined) return loggedParsedBody(c);
  try {
    // Only what is kept is scanned (a little more, so a card number across the cut is still found).
    return loggedText((await c.req.text()).slice(0, MAX_LOGGED_BODY + 64)).slice(0, MAX_LOGGED_BODY) || null;
  } catch {
    return null;
  }
}

/** The parsed body as logged (one scan, which also notes `cardData`); null without a parsed body. */
function loggedParsedBody(c: Context<ApiEnv>): string | null {
  const parsed: unknown = c.get('body');
  if (parsed === undefined || c.req.method === 'GET') return null;
  const scanned = scannedBody(parsed, MAX_LOGGED_BODY);
  c.set('cardData', scanned.cardData);
  return redactSecrets(scanned.json).slice(0, MAX_LOGGED_BODY);
}

/** The creates of /v4: a transaction, a refund, a subscription (the request log notes whether their answer reached the client). */
const CREATE_PATH = /^\/v4\/(?:transactions|subscriptions|transactions\/[^/]+\/refunds)\/?$/;

/** The Node response under the Hono context, when served by @hono/node-server (absent in `app.request`). */
function outgoingOf(c: Context<ApiEnv>): ServerResponse | undefined {
  const env = c.env as { outgoing?: ServerResponse } | undefined;
  return env?.outgoing;
}

/**
 * Hears each logged request: `logged` once its entry is written (its request-log id, the
 * logged path with query secrets redacted, the body as logged); `undelivered` when a create's
 * answer turns out, after its entry was written and heard, not to have reached the client (the
 * connection closed before the answer was written). The go-live report subscribes this way.
 */
export interface RequestObserver {
  logged(c: Context<ApiEnv>, requestId: number, path: string, loggedBody: string | null): Promise<void> | void;
  undelivered?(c: Context<ApiEnv>, requestId: number): void;
}

/** The scope of a /v4 request that is not the merchant's, open while it runs (closed after, for timers it armed). */
const notTheMerchants = new AsyncLocalStorage<{ open: boolean }>();

/**
 * Whether the code running now is the work of a /v4 request that is not the merchant's (the
 * conformance kit's, which names itself in its `User-Agent`), while that request runs: what
 * it creates or moves (an outcome reached at once, a refund) is not the merchant's either.
 */
export function inRequestNotTheMerchants(): boolean {
  return notTheMerchants.getStore()?.open === true;
}

/** What `requestLog` needs: the log it writes, the change feed it tells, the clock, and who hears each request. */
export interface RequestLogDeps {
  requestLog: Pick<RequestLogRepo, 'insert' | 'insertNow' | 'markUndelivered'>;
  clock: Pick<Clock, 'nowMs'>;
  /** Told of each logged request, after it is written. */
  observers?: readonly RequestObserver[];
  /** Emits a change on the feed (`Core.emit`); here `request.logged`. */
  emit(type: ChangeType, accountId: string | null, data: unknown): void;
}

/** The request-log middleware of /v4 (and the bare /buyers). */
export function requestLog(deps: RequestLogDeps): MiddlewareHandler<ApiEnv> {
  const { requestLog: log, clock, emit, observers = [] } = deps;
  /** The entry of `c` as it stands, answered `status` after `duration` ms. */
  const entryOf = (
    c: Context<ApiEnv>,
    path: string,
    status: number,
    duration: number,
    requestBody: string | null,
    responseBody: string | null,
    answerDelivered: boolean | null,
  ) => {
    const account = c.get('account') as ApiEnv['Variables']['account'] | undefined;
    return {
      account_id: account?.id ?? loggedHeader(c.req.header('x-merchant-account-id')),
      method: c.req.method,
      path,
      status,
      idempotency_key: c.get('idempotencyKey') ?? loggedHeader(c.req.header('idempotency-key')),
      replayed: c.get('replayed'),
      duration_ms: Math.round(duration * 100) / 100,
      request_body: requestBody,
      response_body: responseBody,
      warnings: c.get('warnings').map(loggedText),
      at: clock.nowMs(),
      answer_delivered: answerDelivered,
    };
  };
  return async (c, next) => {
    const started = performance.now();
    c.set('warnings', []);
    c.set('replayed', false);
    c.set('idempotencyKey', undefined);
    c.set('cardData', undefined);
    c.set('canonicalBody', undefined);
    c.set('answerLost', false);
    const create = c.req.method === 'POST' && CREATE_PATH.test(c.req.path);
    // A create held by latency or a fault is logged long after it started; its observers order creates by arrival.
    c.set('arrivedAt', create ? clock.nowMs() : undefined);
    /** The entry written in the create's unit of work: its id, the status it logged and the body as logged. */
    let written: { id: number; status: number; path: string; requestBody: string | null } | undefined;
    c.set('logInUnit', (status) => {
      // The answer is known here (a success: no response body is logged), and the body is parsed.
      const requestBody = loggedParsedBody(c);
      const path = loggedPath(c.req.path, c.req.url);
      // Delivered unless the connection closes first: noted after the fact (`markUndelivered`).
      const id = log.insertNow(entryOf(c, path, status, performance.now() - started, requestBody, null, create ? true : null));
      written = { id, status, path, requestBody };
    });
    if (isConformanceUserAgent(c.req.header('user-agent'))) {
      const scope = { open: true };
      try {
        await notTheMerchants.run(scope, next);
      } finally {
        scope.open = false;
      }
    } else await next();
    const duration = performance.now() - started;
    const status = c.res.status;
    const account = c.get('account') as ApiEnv['Variables']['account'] | undefined;
    let path: string;
    let id: number;
    let requestBody: string | null;
    // A create's answer is delivered unless a fault replaced it or the client is already gone.
    const outgoing = create ? outgoingOf(c) : undefined;
    if (outgoing?.destroyed === true) c.set('answerLost', true);
    let delivered = create && !c.get('answerLost');
    if (written !== undefined && written.status === status && c.error === undefined) {
      // Committed with the create (a fault after execution withdraws `logInUnit` before it runs).
      ({ id, path, requestBody } = written);
      if (create && !delivered) log.markUndelivered(id);
    } else {
      path = loggedPath(c.req.path, c.req.url);
      requestBody = await loggedRequestBody(c);
      const responseBody = status >= 400 ? loggedText(await c.res.clone().text()).slice(0, MAX_LOGGED_BODY) : null;
      id = log.insert(entryOf(c, path, status, duration, requestBody, responseBody, create ? delivered : null));
    }
    for (const observer of observers) {
      try {
        await observer.logged(c, id, path, requestBody);
      } catch {
        // An observer never changes the answer: a body it cannot read (nested too deep to
        // fingerprint) is left out of what it observes.
      }
    }
    if (delivered && outgoing !== undefined) {
      // The answer is written after this middleware returns: a close before it is finished is an
      // answer the client never got (an abort, a dropped connection). One listener, no write
      // unless it was lost.
      const lost = (): void => {
        if (!delivered || outgoing.writableFinished) return;
        delivered = false;
        c.set('answerLost', true);
        log.markUndelivered(id);
        for (const observer of observers) {
          try {
            observer.undelivered?.(c, id);
          } catch {
            // as above: an observer never changes the answer
          }
        }
      };
      if (outgoing.destroyed) lost();
      else outgoing.once('close', lost);
    }
    emit('request.logged', account?.id ?? null, {
      id,
      method: c.req.method,
      path: path.includes('?') ? path.slice(0, path.indexOf('?')) : path,
      status,
      duration_ms: Math.round(duration * 100) / 100,
    });
  };
}
