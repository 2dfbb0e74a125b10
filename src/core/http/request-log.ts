/**
 * Records every /v4 call in the request log (method, path, status, idempotency key, replayed,
 * duration, bodies of failures, warnings such as ignored unknown fields), for the panel.
 * Card numbers are masked and security codes dropped before anything is stored (redact.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AccountIdentity } from '../auth/account.js';
import type { ChangeType } from '../domain/events.js';
import type { ApiEnv, Exchange } from './env.js';
import { FAULT_HEADER, parseFault, type FaultOutcome } from './faults.js';
import { canonicalBody, canonicalJson } from './idempotency.js';
import type { Clock } from '../clock/clock.js';
import type { RequestLogRepo } from './ports.js';
import { isSecurityCodeKey, redactSecurityCodes } from '../redaction/card-data.js';
import { carriesCardData, holdsCardNumber, MAX_LOGGED_BODY, redactText, scannedBody } from './redact.js';
import { holdsSecret, redactSecrets } from '../redaction/secrets.js';
import { isConformanceUserAgent } from '../sandbox-client.js';

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

/** URLs longer than this are not kept by `loggedPath`'s memory of recent answers. */
const REMEMBERED_URL_MAX = 512;
/** How many recent URLs `loggedPath` keeps the answer of (the oldest goes first). */
const REMEMBERED_URLS = 1024;
/** The recent URLs' paths as logged: a client polling one record asks the same URL again and again. */
const recentlyLogged = new Map<string, { path: string; logged: string }>();

/**
 * The request's path and query as logged: secret parameters and API keys or JWTs in any value
 * are replaced by `[redacted]`; card numbers are masked and security-code parameters
 * redacted, in the path and the query, whatever their encoding. The answer depends on `path`
 * and `url` alone: a recent URL's is kept, and a repeated request is not scanned again.
 */
export function loggedPath(path: string, url: string): string {
  if (url.length > REMEMBERED_URL_MAX) return scannedPath(path, url);
  const recent = recentlyLogged.get(url);
  if (recent !== undefined && recent.path === path) return recent.logged;
  const logged = scannedPath(path, url);
  if (recentlyLogged.size >= REMEMBERED_URLS) recentlyLogged.delete(recentlyLogged.keys().next().value!);
  recentlyLogged.set(url, { path, logged });
  return logged;
}

/** `loggedPath`, scanned. */
function scannedPath(path: string, url: string): string {
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

/** The body of a request whose body was read but did not parse (null for a GET or an unread body). */
async function rawText(c: Context<ApiEnv>): Promise<string | null> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return null;
  try {
    return await c.req.text();
  } catch {
    return null;
  }
}

/** Whether a body (parsed, or its text when it did not parse) carries a card number or a security code, under any field name. */
export function bodyCarriesCardData(body: unknown, text: string | null): boolean {
  if (body === undefined) return text !== null && (holdsCardNumber(text) || redactSecurityCodes(text) !== text);
  return carriesCardData(body);
}

/** The body's text as JSON when it parses, else undefined. */
function parsedOrUndefined(text: string | null): unknown {
  if (text === null || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The routes of /v4 whose answer the request log follows to the client: the creates. */
const CREATE_ROUTES = new Set(['/v4/transactions', '/v4/subscriptions', '/v4/transactions/:transaction_id/refunds']);

/**
 * The route a request matched, as registered (`/v4/transactions/:transaction_id/refunds`):
 * the first matched route that is not middleware; null when none matched.
 */
function matchedRoute(c: Context<ApiEnv>): string | null {
  for (const route of c.req.matchedRoutes) if (route.method !== 'ALL') return route.path;
  return null;
}

/** The Node response under the Hono context, when served by @hono/node-server (absent in `app.request`). */
function outgoingOf(c: Context<ApiEnv>): ServerResponse | undefined {
  const env = c.env as { outgoing?: ServerResponse } | undefined;
  return env?.outgoing;
}

/**
 * One logged /v4 request, as the request log publishes it to its subscribers once its entry
 * is written (the go-live report is one): what was asked, what answered, and what happened on
 * the way. Built only while someone subscribes.
 */
export interface LoggedRequest {
  /** Its request-log id. */
  id: number;
  method: string;
  /** The route that matched, as registered (`/v4/transactions/:transaction_id/refunds`); null when none did. */
  route: string | null;
  /** The route's path parameters. */
  params: Readonly<Record<string, string>>;
  /** The path as requested, without the query. */
  path: string;
  /** The path and query as logged (secrets and card data redacted). */
  loggedPath: string;
  /** A request header as sent. */
  header(name: string): string | undefined;
  /** The account authentication found; undefined when it did not get that far. */
  account: AccountIdentity | undefined;
  /** The status the client was answered (a fault's, when one replaced the answer). */
  status: number;
  /** The status the operation answered, before a fault replaced it (else `status`). */
  executedStatus: number;
  /** The answer's `Retry-After` in seconds, if it had a valid one. */
  retryAfterS: number | null;
  /** The answer is the stored one of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  /** The body as parsed and validated, or the JSON of a body the gate refused, or undefined. */
  body: unknown;
  /** The text of a body that did not parse as JSON (null otherwise). */
  bodyText: string | null;
  /** Whether the body carried card data (a card number, or a security code under any field name). */
  cardData(): boolean;
  /** The record a create made, as answered (not on a replay, nor when a fault stopped it before it ran). */
  created: { id: string; amount: number | null } | null;
  /** A fault was asked for (`X-Sandbox-Fault`) or a scenario rule played one. */
  fault: boolean;
  /** Whether the answer reached the client, as known when logged (a loss learnt later is told by `undelivered`). */
  answerDelivered: boolean;
  /** Method, path with its query, and canonical body, hashed (made when first asked; a keyed create's idempotency fingerprint when it is the same text). */
  fingerprint(): string;
  /** When the request arrived, on its account's clock (ms): a request held by a fault or latency is logged long after. */
  arrivedAtMs: number;
  /** The request is not the merchant's: the conformance kit's, which names itself in its `User-Agent`. */
  notTheMerchants: boolean;
}

/** A subscriber of the request log: each logged request, and each create whose answer turned out not to reach the client after it was heard. */
export interface RequestListener {
  logged(request: LoggedRequest): void;
  undelivered?(request: LoggedRequest): void;
}

/** Subscribes to the request log's events; returns the function that unsubscribes. */
export type SubscribeRequests = (listener: RequestListener) => () => void;

/** The scope of a /v4 request that is not the merchant's, open while it runs (closed after, for timers it armed). */
const notTheMerchants = new AsyncLocalStorage<{ open: boolean }>();

/** Runs `next` in a scope of a request that is not the merchant's, closed once it is done. */
async function inScopeNotTheMerchants(next: () => Promise<void>): Promise<void> {
  const scope = { open: true };
  try {
    await notTheMerchants.run(scope, next);
  } finally {
    scope.open = false;
  }
}

/**
 * Whether the code running now is the work of a /v4 request that is not the merchant's (the
 * conformance kit's, which names itself in its `User-Agent`), while that request runs: what
 * it creates or moves (an outcome reached at once, a refund) is not the merchant's either.
 */
export function inRequestNotTheMerchants(): boolean {
  return notTheMerchants.getStore()?.open === true;
}

/** What `requestLog` needs: the log it writes, the change feed it tells, the clock. */
export interface RequestLogDeps {
  requestLog: Pick<RequestLogRepo, 'insert' | 'insertNow' | 'markUndelivered'>;
  clock: Pick<Clock, 'nowMs'>;
  /** Emits a change on the feed (`Core.emit`); here `request.logged`. */
  emit(type: ChangeType, accountId: string | null, data: unknown): void;
  /** Whether anyone listens to `request.logged` (the panel, the terminal with `--log`); by default, assumed. */
  listens?(type: ChangeType): boolean;
}

/** The request log of one app: the pipeline opens each request's entry as it arrives and closes it once answered. */
export interface RequestLog {
  /**
   * Notes a request's arrival (its exchange gets the hook that writes the entry in a create's
   * unit of work); the function returned writes the entry, unless written in that unit of work,
   * and tells the subscribers.
   */
  arrive(c: Context<ApiEnv>, exchange: Exchange): (faults: FaultOutcome) => Promise<void> | undefined;
  /** Tells the subscribers and the change feed of every request answered so far (see `afterAnswer`). */
  tellAnswered(): void;
  /** Runs `next` in the scope of a request that is not the merchant's when `c` is one. */
  scoped(c: Context<ApiEnv>, next: () => Promise<void>): Promise<void>;
  subscribe: SubscribeRequests;
}

/** The request log of /v4 (and the bare /buyers). */
export function requestLog(deps: RequestLogDeps): RequestLog {
  const { requestLog: log, clock, emit, listens = () => true } = deps;
  const listeners: RequestListener[] = [];
  /** The entry of `c` as it stands, answered `status` after `duration` ms. */
  const entryOf = (
    c: Context<ApiEnv>,
    exchange: Exchange,
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
      idempotency_key: exchange.idempotencyKey ?? loggedHeader(c.req.header('idempotency-key')),
      replayed: exchange.replayed,
      duration_ms: Math.round(duration * 100) / 100,
      request_body: requestBody,
      response_body: responseBody,
      warnings: exchange.warnings.map(loggedText),
      at: clock.nowMs(),
      answer_delivered: answerDelivered,
    };
  };

  /**
   * What the subscribers and the change feed have not heard yet. A request answered over a
   * socket is told after its answer is written to the socket (whose bytes leave with the
   * turn's other answers, `coalesced-writes.ts`): at the end of the event loop's turn, and in
   * any case before the sandbox handles another request
   * (`tellAnswered`, first in the app), so whatever a client asks after an answer already knows
   * of it. A request in process (`app.request`) is told before its answer returns.
   */
  let unheard: (() => void)[] = [];
  const tellAnswered = (): void => {
    while (unheard.length > 0) {
      const now = unheard;
      unheard = [];
      for (const told of now) {
        try {
          told();
        } catch {
          // As a subscriber's failure in `tell`: it changes no answer, and stops nothing.
        }
      }
    }
  };
  const afterAnswer = (c: Context<ApiEnv>, told: () => void): void => {
    if (outgoingOf(c) === undefined) told();
    else if (unheard.push(told) === 1) setImmediate(tellAnswered);
  };

  /** Tells each subscriber; a failing one is isolated: it never changes the answer. */
  const tell = (request: LoggedRequest, undelivered: boolean): void => {
    for (const listener of listeners) {
      try {
        if (undelivered) listener.undelivered?.(request);
        else listener.logged(request);
      } catch {
        // A subscriber that cannot read what it was told (a body nested too deep to fingerprint) leaves it out.
      }
    }
  };

  const arrive = (c: Context<ApiEnv>, exchange: Exchange) => {
    const started = performance.now();
    const arrivedAtMs = clock.nowMs();
    const route = matchedRoute(c);
    const create = c.req.method === 'POST' && route !== null && CREATE_ROUTES.has(route);
    /** The parsed body as logged, scanned once (which also says whether it carries card data). */
    let scanned: { text: string | null; cardData: boolean } | undefined;
    const loggedParsedBody = (): string | null => {
      if (scanned !== undefined) return scanned.text;
      const parsed: unknown = c.get('body');
      if (parsed === undefined || c.req.method === 'GET') return null;
      // The body's pass made the scan with its canonical text when the body is the one it passed.
      const passed = c.get('loggedBody');
      const body = passed !== undefined && passed.body === parsed ? passed : scannedBody(parsed, MAX_LOGGED_BODY);
      scanned = { text: redactSecrets(body.json).slice(0, MAX_LOGGED_BODY), cardData: body.cardData };
      return scanned.text;
    };
    /** The entry written in the create's unit of work: its id, the status it logged and the body as logged. */
    let written: { id: number; status: number; path: string } | undefined;
    /** The path as logged, made with the body before a create's unit of work opens (`prepareLog`). */
    let entryPath: string | undefined;
    const prepareLog = (): void => {
      loggedParsedBody();
      entryPath = loggedPath(c.req.path, c.req.url);
    };
    // Only a create (a POST) runs in a unit of work with its key: a read is logged after its answer.
    // Assigned from a constant: V8 allocates a function literal assigned straight to a property
    // in the old generation, where it would hold this request's objects until a full collection.
    const logInUnit = (status: number): void => {
      // The answer is known here (a success: no response body is logged), and the body is parsed.
      const requestBody = loggedParsedBody();
      const path = entryPath ?? loggedPath(c.req.path, c.req.url);
      // Delivered unless the connection closes first: noted after the fact (`markUndelivered`).
      const id = log.insertNow(entryOf(c, exchange, path, status, performance.now() - started, requestBody, null, create ? true : null));
      written = { id, status, path };
    };
    if (c.req.method === 'POST') {
      exchange.logInUnit = logInUnit;
      exchange.prepareLog = prepareLog;
    }

    /** Writes the entry (unless the create's unit of work wrote it), then tells the subscribers and the change feed. */
    const close = (closing: Closing, logged?: LoggedEntry): void => {
      const { faults, duration, status, text, outgoing } = closing;
      let { delivered } = closing;
      let path: string;
      let id: number;
      if (logged === undefined) {
        // Committed with the create (a fault after execution withdraws `logInUnit` before it runs).
        ({ id, path } = written!);
        if (create && !delivered) log.markUndelivered(id);
      } else {
        path = logged.path;
        id = log.insert(entryOf(c, exchange, path, status, duration, logged.requestBody, logged.responseBody, create ? delivered : null));
      }
      let request: LoggedRequest | undefined;
      let told = false;
      /** The subscribers and the change feed hear of the request (`afterAnswer`), as known then. */
      const heard = (): void => {
        told = true;
        if (listeners.length > 0) {
          request = loggedRequest(c, exchange, { id, path, route, create, delivered, arrivedAtMs, text, faults }, () => scanned?.cardData);
          tell(request, false);
        }
        if (!listens('request.logged')) return;
        const account = c.get('account') as ApiEnv['Variables']['account'] | undefined;
        emit('request.logged', account?.id ?? null, {
          id,
          method: c.req.method,
          path: path.includes('?') ? path.slice(0, path.indexOf('?')) : path,
          status,
          duration_ms: Math.round(duration * 100) / 100,
        });
      };
      afterAnswer(c, heard);
      if (delivered && outgoing !== undefined) {
        // The answer is written after this returns: a close before it is finished is an answer
        // the client never got (an abort, a dropped connection). One listener, no write unless it was lost.
        const lost = (): void => {
          if (!delivered || outgoing.writableFinished) return;
          delivered = false;
          log.markUndelivered(id);
          // Heard already, as delivered: heard again, as lost. Not yet: heard once, as lost.
          if (told && request !== undefined) tell(request, true);
        };
        if (outgoing.destroyed) lost();
        else outgoing.once('close', lost);
      }
    };

    // Async only where it waits: the text of a body that did not parse, or of an error's answer.
    return (faults: FaultOutcome): Promise<void> | undefined => {
      const duration = performance.now() - started;
      const status = c.res.status;
      // A create's answer is delivered unless a fault replaced it or the client is already gone.
      const outgoing = create ? outgoingOf(c) : undefined;
      const delivered = create && faults.executed === undefined && outgoing?.destroyed !== true;
      const closing = (text: string | null): Closing => ({ faults, duration, status, text, outgoing, delivered });
      if (written !== undefined && written.status === status && c.error === undefined) {
        close(closing(null));
        return undefined;
      }
      const path = loggedPath(c.req.path, c.req.url);
      const answered = (requestBody: string | null, text: string | null): Promise<void> | undefined => {
        if (status < 400) {
          close(closing(text), { path, requestBody, responseBody: null });
          return undefined;
        }
        return c.res
          .clone()
          .text()
          .then((answer) => {
            const responseBody = loggedText(answer).slice(0, MAX_LOGGED_BODY);
            close(closing(text), { path, requestBody, responseBody });
          });
      };
      if (c.get('body') !== undefined) return answered(loggedParsedBody(), null);
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return answered(null, null);
      return rawText(c).then((text) =>
        // Only what is kept is scanned (a little more, so a card number across the cut is still found).
        answered(text === null ? null : loggedText(text.slice(0, MAX_LOGGED_BODY + 64)).slice(0, MAX_LOGGED_BODY) || null, text),
      );
    };
  };

  return {
    arrive,
    tellAnswered,
    // A promise of its own only for the conformance kit's requests.
    scoped: (c, next) => (isConformanceUserAgent(c.req.header('user-agent')) ? inScopeNotTheMerchants(next) : next()),
    subscribe: (listener) => {
      listeners.push(listener);
      return () => {
        const at = listeners.indexOf(listener);
        if (at >= 0) listeners.splice(at, 1);
      };
    },
  };
}

/** A request as it closes: the faults played, how long it took, the status sent, a body's text read then, whether its answer is on its way. */
interface Closing {
  faults: FaultOutcome;
  duration: number;
  status: number;
  text: string | null;
  outgoing: ServerResponse | undefined;
  delivered: boolean;
}

/** An entry written when the request closes: its path and bodies as logged. */
interface LoggedEntry {
  path: string;
  requestBody: string | null;
  responseBody: string | null;
}

/** What the closing entry knows of a request, beside its context and exchange. */
interface ClosedEntry {
  id: number;
  path: string;
  route: string | null;
  create: boolean;
  delivered: boolean;
  arrivedAtMs: number;
  /** The body's text when it was read here (no parsed body). */
  text: string | null;
  faults: FaultOutcome;
}

/** The event of one logged request. `scannedCardData`: the log's own scan of the parsed body, when it made one. */
function loggedRequest(
  c: Context<ApiEnv>,
  exchange: Exchange,
  closing: ClosedEntry,
  scannedCardData: () => boolean | undefined,
): LoggedRequest {
  const { id, path, route, create, delivered, arrivedAtMs, text, faults } = closing;
  const method = c.req.method;
  const bare = c.req.path;
  const parsed: unknown = c.get('body');
  const body: unknown = parsed ?? parsedOrUndefined(text);
  const status = c.res.status;
  const retryAfter = status === 429 ? Number(c.res.headers.get('retry-after')) : NaN;
  const answered: unknown = exchange.replayed ? undefined : exchange.answered;
  let created: LoggedRequest['created'] = null;
  if (create && answered !== null && typeof answered === 'object') {
    const { id: createdId, amount } = answered as { id?: unknown; amount?: unknown };
    if (typeof createdId === 'string') created = { id: createdId, amount: typeof amount === 'number' ? amount : null };
  }
  const faultHeader = c.req.header(FAULT_HEADER);
  let fingerprint: string | undefined;
  return {
    id,
    method,
    route,
    params: route === null ? {} : c.req.param(),
    path: bare,
    loggedPath: path,
    header: (name) => c.req.header(name),
    account: c.get('account') as ApiEnv['Variables']['account'] | undefined,
    status,
    executedStatus: faults.executed?.status ?? status,
    retryAfterS: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    replayed: exchange.replayed,
    body,
    bodyText: body === undefined ? text : null,
    cardData: () => {
      if (method === 'GET') return false;
      const scanned = parsed !== undefined ? scannedCardData() : undefined;
      if (scanned !== undefined) return scanned;
      return bodyCarriesCardData(body, body === undefined ? text : null);
    },
    created,
    fault: (faultHeader !== undefined && parseFault(faultHeader) !== null) || faults.played,
    answerDelivered: !create || delivered,
    // A keyed request's idempotency fingerprint hashed the same text (bare path, canonical body): not hashed twice.
    fingerprint: () =>
      (fingerprint ??=
        parsed !== undefined && path === bare && c.get('requestFingerprint') !== undefined
          ? c.get('requestFingerprint')!
          : createHash('sha256')
              .update(
                `${method} ${path}\n${parsed !== undefined ? canonicalBody(c) : body !== undefined ? canonicalJson(body) : (text ?? '')}`,
              )
              .digest('hex')),
    arrivedAtMs,
    notTheMerchants: isConformanceUserAgent(c.req.header('user-agent')),
  };
}
