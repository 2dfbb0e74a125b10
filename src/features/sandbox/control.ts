/**
 * The sandbox's own control routes, their definitions and handlers: `GET /_sandbox/health`,
 * `GET /_sandbox/currencies`, the sandbox clock (`/_sandbox/clock`, moving it forward) and each
 * account's own (`/_sandbox/accounts/{account_id}/clock`), the API request log
 * (`GET /_sandbox/requests`), `POST /_sandbox/reset` and the change feed (`GET /_sandbox/events`).
 * The reset and the advances themselves are `sandbox-control.ts`'s.
 */
import { createRoute, z, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { isoTimestamp, type Clock } from '../../core/clock/clock.js';
import { AdvanceRefusal } from '../../core/clock/timed-work.js';
import { SandboxError, notFound } from '../../core/domain/errors.js';
import type { SandboxEvents } from '../../core/domain/events.js';
import { CURRENCY_CODES, currencyExponent } from '../../core/domain/money.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import { accountOr404, accountQuery, errors, json, type ControlHandler } from '../../core/http/control-route-parts.js';
import type { AppEnv } from '../../core/http/env.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../../core/http/pagination.js';
import type { RequestLogEntry as RequestLogRow, RequestLogFilter, RequestLogRepo } from '../../core/http/ports.js';
import { createRouter } from '../../core/http/router.js';
import { errorSchema } from '../../core/http/schemas.js';
import type { MerchantAccounts } from '../accounts/index.js';
import { addInterval } from '../subscriptions/index.js';
import {
  accountClockParam,
  clockAdvanceSchema,
  clockAdvancedSchema,
  clockSchema,
  keyPoolSchema,
  requestFilterQuery,
  requestLogEntrySchema,
  resetResultSchema,
  resetSchema,
  type RequestLogEntry,
} from './control.schemas.js';
import { FanOut, serveEventStream } from './event-stream.js';
import type { SandboxControl } from './sandbox-control.js';

// ---- Route definitions

const getHealth = createRoute({
  method: 'get',
  path: '/health',
  ...controlOperation,
  operationId: 'getHealth',
  summary: 'Ready check',
  responses: { 200: json(z.object({ status: z.literal('ok'), now: z.string(), key_pool: keyPoolSchema })) },
});

const listCurrencies = createRoute({
  method: 'get',
  path: '/currencies',
  ...controlOperation,
  operationId: 'listCurrencies',
  summary: 'ISO 4217 minor-unit exponent of every accepted currency (for showing amounts in major units)',
  responses: { 200: json(z.object({ exponents: z.record(z.string(), z.number().int()) })) },
});

const getClock = createRoute({
  method: 'get',
  path: '/clock',
  ...controlOperation,
  operationId: 'getClock',
  summary: 'The sandbox clock',
  responses: { 200: json(clockSchema) },
});

const advanceClock = createRoute({
  method: 'post',
  path: '/clock/advance',
  ...controlOperation,
  operationId: 'advanceClock',
  summary: 'Move the clock forward by seconds or calendar months, running all that falls due, in time order',
  description:
    "No clock passes 9999-12-31T23:59:59Z: an advance whose end would take the sandbox clock or any account's clock past it is 400 and moves nothing. " +
    'An advance estimated at more than 100,000 steps is 400 before anything moves (`moved_seconds`: 0); one that reaches the limit part-way stops there, ' +
    'keeps what ran and answers 400 with `now`, `offset_seconds`, `moved_seconds`, `remaining_seconds` and `steps` in the error envelope.',
  request: { body: { required: true, content: { 'application/json': { schema: clockAdvanceSchema } } } },
  responses: { 200: json(clockAdvancedSchema), 400: errors[400] },
});

const getAccountClock = createRoute({
  method: 'get',
  path: '/accounts/{account_id}/clock',
  ...controlOperation,
  operationId: 'getAccountClock',
  summary: "An account's own clock: the sandbox clock plus the account's own offset",
  description:
    "`offset_seconds` is how far the account's clock is ahead of real time: the sandbox clock's offset plus what the account's own advances added.",
  request: { params: accountClockParam },
  responses: { 200: json(clockSchema), 404: errors[404] },
});

const advanceAccountClock = createRoute({
  method: 'post',
  path: '/accounts/{account_id}/clock/advance',
  ...controlOperation,
  operationId: 'advanceAccountClock',
  summary: "Move one account's clock forward, running that account's due work alone, in time order",
  description:
    "The body and answer of `POST /_sandbox/clock/advance`, for one account: its renewals, retries of its webhooks, its link and idempotency-key expiries and its scenario steps fall due on its own clock. Every other account's clock and the sandbox clock stay where they are. `POST /_sandbox/clock/advance` still moves every account's clock.",
  request: {
    params: accountClockParam,
    body: { required: true, content: { 'application/json': { schema: clockAdvanceSchema } } },
  },
  responses: { 200: json(clockAdvancedSchema), 400: errors[400], 404: errors[404] },
});

const listRequests = createRoute({
  method: 'get',
  path: '/requests',
  ...controlOperation,
  operationId: 'listRequests',
  summary:
    "The API request log, newest first: one account's, or every request without account_id (401s included); filtered by method, path and status",
  description:
    'Every filter given must hold. `path` is compared with the logged path without its query string, exactly; `path_prefix` matches paths that start with it. Cursors of a filtered page are used with the same filters.',
  request: { query: pageQuerySchema.extend(accountQuery.shape).extend(requestFilterQuery.shape) },
  responses: { 200: json(pageSchema(requestLogEntrySchema, 'RequestLogPage')), 400: errors[400], 404: errors[404] },
});

const reset = createRoute({
  method: 'post',
  path: '/reset',
  ...controlOperation,
  operationId: 'resetSandbox',
  summary: 'Empty all data, keep the accounts, credentials and scenarios; optionally rewind the clock to real time',
  request: { body: { required: false, content: { 'application/json': { schema: resetSchema } } } },
  responses: { 200: json(resetResultSchema), 400: errors[400], 413: json(errorSchema, 'Body larger than --body-limit') },
});

/** The change feed's OpenAPI entry (the stream itself is served by a plain handler, not a zod route). */
const streamEvents = {
  method: 'get',
  path: '/events',
  ...controlOperation,
  operationId: 'streamEvents',
  summary: 'The change feed as server-sent events',
  description:
    'One `ready` event (`{"now": ...}`), then one `change` event per change, its data a JSON object with a `type` (`transaction.*`, `refund.created`, `subscription.*`, `delivery.attempted`, `request.logged`, `clock.advanced`, ...). A `: keep-alive` comment is sent after 15 seconds without events. A stream that falls more than 1 MiB behind (its client does not read) gets one `dropped` event and is closed. The stream ends when the sandbox stops.',
  responses: {
    200: {
      description: 'The event stream',
      content: {
        'text/event-stream': { schema: { type: 'string', description: 'Server-sent events (event: ready | change; data: JSON)' } },
      },
    },
  },
} satisfies RouteConfig;

// ---- Handlers and routers

/** What the clock routes use. */
export interface ClockControlDeps {
  clock: Pick<Clock, 'nowMs' | 'offsetMs'>;
  control: Pick<SandboxControl, 'advanceClock'>;
}

/** What the account clock routes use: the accounts (404 for an unknown one) and the control. */
export interface AccountClockControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  control: Pick<SandboxControl, 'advanceAccountClock' | 'accountClock'>;
}

/**
 * Runs one advance of `body` from `nowMs` (seconds, or calendar months on that clock); a
 * refusal (too long, past the latest time a clock may show) or a stop at the step limit names
 * the field, and keeps how far the clock moved in its envelope.
 */
async function advanceBy(
  body: z.output<typeof clockAdvanceSchema>,
  nowMs: number,
  run: (seconds: number, options: { waitForWebhooks: boolean }) => Promise<number>,
): Promise<number> {
  const { seconds, months, wait_for_webhooks: waitForWebhooks } = body;
  try {
    return await run(months === undefined ? seconds! : (addInterval(new Date(nowMs), 'month', months).getTime() - nowMs) / 1000, {
      waitForWebhooks,
    });
  } catch (err) {
    if (!(err instanceof AdvanceRefusal)) throw err;
    const pointer = months === undefined ? '/seconds' : '/months';
    throw new SandboxError(
      err.status,
      err.code,
      err.message,
      [{ type: 'value_error', pointer, location: 'body', message: err.detail }],
      err.extra,
    );
  }
}

/** `/_sandbox/clock`: the sandbox clock, and moving it forward. */
export function clockControlRoutes({ clock, control }: ClockControlDeps): OpenAPIHono<AppEnv> {
  const get: ControlHandler<typeof getClock> = (c) =>
    c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000 }, 200);
  const advance: ControlHandler<typeof advanceClock> = async (c) => {
    const steps = await advanceBy(c.req.valid('json'), clock.nowMs(), (seconds, options) => control.advanceClock(seconds, options));
    return c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000, steps }, 200);
  };
  return createRouter<AppEnv>().openapi(getClock, get).openapi(advanceClock, advance);
}

/** `/_sandbox/accounts/{account_id}/clock`: one account's own clock, and moving it forward. */
export function accountClockControlRoutes({ accounts, control }: AccountClockControlDeps): OpenAPIHono<AppEnv> {
  const accountOf = (accountId: string): string => {
    if (!accounts.byId(accountId)) throw notFound(`Merchant account ${accountId} not found`);
    return accountId;
  };
  const view = (accountId: string): { now: string; offset_seconds: number } => {
    const { nowMs, offsetMs } = control.accountClock(accountId);
    return { now: isoTimestamp(nowMs), offset_seconds: offsetMs / 1000 };
  };
  const get: ControlHandler<typeof getAccountClock> = (c) => c.json(view(accountOf(c.req.valid('param').account_id)), 200);
  const advance: ControlHandler<typeof advanceAccountClock> = async (c) => {
    const accountId = accountOf(c.req.valid('param').account_id);
    const steps = await advanceBy(c.req.valid('json'), control.accountClock(accountId).nowMs, (seconds, options) =>
      control.advanceAccountClock(accountId, seconds, options),
    );
    return c.json({ ...view(accountId), steps }, 200);
  };
  return createRouter<AppEnv>().openapi(getAccountClock, get).openapi(advanceAccountClock, advance);
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

/** A logged /v4 request as the control API shows it, its error envelope parsed so the panel need not. */
export function requestLogEntry(row: RequestLogRow): RequestLogEntry {
  return {
    id: row.seq,
    merchant_account_id: row.account_id,
    method: row.method,
    path: row.path,
    status: row.status,
    idempotency_key: row.idempotency_key,
    replayed: row.replayed,
    duration_ms: row.duration_ms,
    request_body: row.request_body,
    response_body: row.response_body,
    warnings: row.warnings,
    at: isoTimestamp(row.at),
    answer_delivered: row.answer_delivered,
    error: loggedError(row),
  };
}

/** The store's filter of a request-log query, or undefined when it filters on nothing but the account. */
export function requestLogFilter(accountId: string | undefined, query: z.infer<typeof requestFilterQuery>): RequestLogFilter | undefined {
  if (query.method === undefined && query.path === undefined && query.path_prefix === undefined && query.status === undefined)
    return undefined;
  const status =
    query.status === undefined
      ? undefined
      : /x/i.test(query.status)
        ? { min: Number(query.status[0]) * 100, max: Number(query.status[0]) * 100 + 99 }
        : { min: Number(query.status), max: Number(query.status) };
  return { accountId, method: query.method?.toUpperCase(), path: query.path, pathPrefix: query.path_prefix, status };
}

/** What the request-log route uses: the log's read side only. */
export interface RequestLogControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  requestLog: Pick<RequestLogRepo, 'page' | 'pageAll' | 'find'>;
}

/** `GET /_sandbox/requests`: the API request log, filtered by account, method, path and status, in keyset pages. */
export function requestLogControlRoutes({ accounts, requestLog }: RequestLogControlDeps): OpenAPIHono<AppEnv> {
  const list: ControlHandler<typeof listRequests> = (c) => {
    const query = c.req.valid('query');
    const account = accountOr404(accounts, query.account_id);
    const filter = requestLogFilter(account?.id, query);
    // A cursor is valid for the same list, account and filters only.
    const scope = { list: '_sandbox/requests', scope: JSON.stringify([account?.id ?? '*', filter ?? null]) };
    const req = pageRequest(query, scope);
    const page = filter ? requestLog.find(filter, req) : account ? requestLog.page(account.id, req) : requestLog.pageAll(req);
    return c.json(pageEnvelope(page, query.limit, requestLogEntry, scope), 200);
  };
  return createRouter<AppEnv>().openapi(listRequests, list);
}

/** What the sandbox's control routes use. */
export interface SandboxControlRouteDeps extends RequestLogControlDeps {
  clock: Pick<Clock, 'nowMs' | 'offsetMs'>;
  events: Pick<SandboxEvents, 'subscribe'>;
  /** The key pool's level, for the health check. */
  keyPool: Pick<MerchantAccounts, 'keyPoolLevel'>;
  control: SandboxControl;
}

/** Every route of the sandbox's own, in the order the document lists them. */
export function sandboxControlRoutes(deps: SandboxControlRouteDeps): OpenAPIHono<AppEnv> {
  const { clock, control } = deps;
  const health: ControlHandler<typeof getHealth> = (c) =>
    c.json({ status: 'ok' as const, now: isoTimestamp(clock.nowMs()), key_pool: deps.keyPool.keyPoolLevel() }, 200);
  const currencies: ControlHandler<typeof listCurrencies> = (c) =>
    c.json({ exponents: Object.fromEntries(CURRENCY_CODES.map((code) => [code, currencyExponent(code)])) }, 200);
  const resetAll: ControlHandler<typeof reset> = (c) => {
    control.reset({ rewindClock: c.req.valid('json')?.rewind_clock ?? false });
    return c.json({ status: 'reset' as const, now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000 }, 200);
  };
  // One fan-out of the feed per router: each event is serialized once for every stream.
  const fanOut = new FanOut(deps.events);
  const events = createRouter<AppEnv>();
  events.openAPIRegistry.registerPath(streamEvents);
  events.get(streamEvents.path, (c: Context<AppEnv>) => serveEventStream(c, fanOut, JSON.stringify({ now: isoTimestamp(clock.nowMs()) })));

  return createRouter<AppEnv>()
    .route('/', createRouter<AppEnv>().openapi(getHealth, health))
    .route('/', createRouter<AppEnv>().openapi(listCurrencies, currencies))
    .route('/', clockControlRoutes(deps))
    .route('/', accountClockControlRoutes(deps))
    .route('/', requestLogControlRoutes(deps))
    .route('/', createRouter<AppEnv>().openapi(reset, resetAll))
    .route('/', events);
}
