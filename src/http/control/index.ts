/**
 * The control API under /_sandbox (contract: Control API): health, credentials, accounts,
 * outcomes by hand, the clock, the delivery log, the request log, the change feed and reset.
 * Used by the panel and by CI scripts; answers with the same error envelope as the API.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { credentialsOf } from '../../domain/accounts.js';
import { addInterval } from '../../domain/billing-schedule.js';
import { isoTimestamp } from '../../domain/clock.js';
import { badRequest, notFound } from '../../domain/errors.js';
import { AdvanceTooLongError, MAX_ADVANCE_STEPS } from '../../domain/scheduler.js';
import { CURRENCY_CODES, currencyExponent } from '../../domain/money.js';
import type { Account as AccountRow } from '../../domain/entities.js';
import type { RequestLogFilter } from '../ports.js';
import type { AppEnv } from '../env.js';
import { refundView } from '../formatters/refund.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../pagination.js';
import { refundSchema } from '../routes/transactions.schemas.js';
import { amountSchema, errorSchema } from '../schemas.js';
import { accountCredentialsSchema, clockAdvancedSchema, clockSchema, controlTransactionSchema, credentialsSchema, deliverySchema, requestLogEntrySchema, transactionDetailSchema, webhookJwkSchema } from './schemas.js';
import { controlDelivery, controlTransaction, controlTransactionOf, requestLogEntry, transactionDetail } from './views.js';
import { WEBHOOK_KEY_FORMATS, webhookKeyAs, webhookKeyForms } from './webhook-key.js';
import { serveEventStream } from './event-stream.js';
import { createRouter } from '../router.js';
import { controlOperation } from '../openapi/document.js';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const errors = {
  400: json(errorSchema, 'Bad request'),
  404: json(errorSchema, 'Not found'),
  409: json(errorSchema, 'Illegal transition'),
};
const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
const accountQuery = z.object({ account_id: z.string().optional() });

const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 60 * 60;
const MAX_ADVANCE_MONTHS = 120;

/** `{ seconds }` or `{ months }` (calendar months on the sandbox clock, UTC, clamped to the month's end). */
const clockAdvanceSchema = z
  .object({
    seconds: z.number().positive().max(MAX_ADVANCE_SECONDS).optional().openapi({ description: 'Seconds to move forward.' }),
    months: z.number().int().min(1).max(MAX_ADVANCE_MONTHS).optional().openapi({ description: 'Calendar months to move forward: the same day and time n months later (Jan 31 + 1 month = Feb 28).' }),
    wait_for_webhooks: z
      .boolean()
      .default(true)
      .openapi({
        description:
          'Default true: answer once every webhook the advance queued has had its attempt (acknowledged, refused or timed out; retries that fall due later wait for a later advance), so a test can check its handler right after the call. false: answer as soon as the clock has moved and its steps are saved, never waiting for a webhook\'s round trip (not one already under way, nor a retry falling due in the window); the webhooks follow.',
      }),
  })
  .refine((body) => (body.seconds === undefined) !== (body.months === undefined), { message: 'Give either seconds or months' })
  .openapi('ClockAdvance');

/** `POST /_sandbox/reset` body (optional). */
const resetSchema = z
  .object({
    rewind_clock: z.boolean().default(false).openapi({ description: 'Also send the sandbox clock back to real time (offset 0, persisted with --db). Default false: the clock keeps its offset.' }),
  })
  .openapi('ResetRequest');

const resetResultSchema = z
  .object({
    status: z.literal('reset'),
    now: z.string().openapi({ description: 'The sandbox clock after the reset.' }),
    offset_seconds: z.number().openapi({ description: 'How far the clock is ahead of real time: 0 after rewind_clock.' }),
  })
  .openapi('ResetResult');

/** The filters of `GET /_sandbox/requests`, besides `account_id`. */
const requestFilterQuery = z.object({
  method: z
    .string()
    .regex(/^[A-Za-z]{1,10}$/, { message: 'method must be an HTTP method such as POST' })
    .optional()
    .openapi({ example: 'POST', description: 'The HTTP method (any case).' }),
  path: z
    .string()
    .regex(/^\/[^?#]*$/, { message: 'path must start with / and carry no query string' })
    .max(2000)
    .optional()
    .openapi({ example: '/v4/transactions', description: 'The path, exactly, without the query string (a logged `/v4/transactions?limit=5` matches `/v4/transactions`).' }),
  path_prefix: z
    .string()
    .regex(/^\/[^?#]*$/, { message: 'path_prefix must start with / and carry no query string' })
    .max(2000)
    .optional()
    .openapi({ example: '/v4/transactions/', description: 'The path starts with this (`/v4/transactions/` finds every call on one transaction: gets, refunds).' }),
  status: z
    .string()
    .regex(/^[1-5](\d\d|[xX][xX])$/, { message: 'status must be a status code such as 201, or a class such as 4xx' })
    .optional()
    .openapi({ example: '201', description: 'A status code (`201`) or a class (`2xx`, `4xx`, `5xx`).' }),
});

/** The store's filter of a request-log query, or undefined when it filters on nothing but the account. */
function requestLogFilter(accountId: string | undefined, query: z.infer<typeof requestFilterQuery>): RequestLogFilter | undefined {
  if (query.method === undefined && query.path === undefined && query.path_prefix === undefined && query.status === undefined) return undefined;
  const status = query.status === undefined ? undefined : /x/i.test(query.status) ? { min: Number(query.status[0]) * 100, max: Number(query.status[0]) * 100 + 99 } : { min: Number(query.status), max: Number(query.status) };
  return { accountId, method: query.method?.toUpperCase(), path: query.path, pathPrefix: query.path_prefix, status };
}

const webhookKeyQuery = z.object({
  format: z
    .enum(WEBHOOK_KEY_FORMATS)
    .default('pem')
    .openapi({ description: 'pem: SPKI PEM (default); der: SPKI DER in base64, one line; jwk: a JWK (RFC 7517) with kid, alg and use; x509: a self-signed X.509 certificate (PEM) of the key.' }),
});

/** The /_sandbox routes. */
export function controlRoutes(): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();

  const accountOr404 = (sandboxAccounts: { byId(id: string): AccountRow | undefined }, id: string | undefined): AccountRow | undefined => {
    if (id === undefined) return undefined;
    const account = sandboxAccounts.byId(id);
    if (!account) throw notFound(`Merchant account ${id} not found`);
    return account;
  };

  const keyPool = z.object({ size: z.number().int(), ready: z.number().int() }).describe('Account key pairs made ahead of time (--key-pool): ready of size');
  app.openapi(createRoute({ method: 'get', path: '/health', ...controlOperation, operationId: 'getHealth', summary: 'Ready check', responses: { 200: json(z.object({ status: z.literal('ok'), now: z.string(), key_pool: keyPool })) } }), (c) =>
    c.json({ status: 'ok' as const, now: isoTimestamp(c.get('sandbox').clock.nowMs()), key_pool: c.get('sandbox').accounts.keyPoolLevel() }, 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: '/credentials', ...controlOperation, operationId: 'getCredentials', summary: 'Demo and created accounts with their credentials, and the webhook public key in every form', responses: { 200: json(credentialsSchema) } }),
    async (c) => {
      const sandbox = c.get('sandbox');
      return c.json({ accounts: sandbox.stores.accounts.all().map(credentialsOf), webhook_public_key_pem: sandbox.webhookPublicKeyPem, webhook_public_key: await webhookKeyForms() }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts',
      ...controlOperation,
      operationId: 'createAccount',
      summary: 'Create an isolated account with fresh credentials',
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ mode: z.enum(['direct', 'checkout']), name: z.string().min(1).max(64).optional() }) } } } },
      responses: { 201: json(accountCredentialsSchema, 'Created'), 400: errors[400] },
    }),
    async (c) => {
      const { mode, name } = c.req.valid('json');
      return c.json(await c.get('sandbox').accounts.create(mode, name), 201);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/currencies', ...controlOperation, operationId: 'listCurrencies', summary: 'ISO 4217 minor-unit exponent of every accepted currency (for showing amounts in major units)', responses: { 200: json(z.object({ exponents: z.record(z.string(), z.number().int()) })) } }),
    (c) => c.json({ exponents: Object.fromEntries(CURRENCY_CODES.map((code) => [code, currencyExponent(code)])) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/webhook-public-key',
      ...controlOperation,
      operationId: 'getWebhookPublicKey',
      summary: 'The webhook public key, in the form `format` names',
      description:
        'Verify the `signature` header (base64 RSA-SHA256 of the raw body) with this key. `?format=pem` (default) serves the SubjectPublicKeyInfo as PEM; `der` the same SPKI as base64 DER on one line (text/plain); `jwk` a JWK (application/jwk+json) with kid (RFC 7638 thumbprint), alg RS256 and use sig; `x509` a self-signed X.509 certificate of the key (PEM). The key is the published demo key: the same on every start.',
      request: { query: webhookKeyQuery },
      responses: {
        200: {
          description: 'The key',
          content: {
            'application/x-pem-file': { schema: z.string().openapi({ description: 'format=pem (PUBLIC KEY) or format=x509 (CERTIFICATE)' }) },
            'text/plain': { schema: z.string().openapi({ description: 'format=der: base64 of the DER SubjectPublicKeyInfo' }) },
            'application/jwk+json': { schema: webhookJwkSchema },
          },
        },
        400: errors[400],
      },
    }),
    async (c) => {
      const { body, contentType } = await webhookKeyAs(c.req.valid('query').format);
      return c.body(body, 200, { 'content-type': contentType });
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/transactions', ...controlOperation, operationId: 'listControlTransactions', summary: "An account's transactions with their refunds, newest first", request: { query: pageQuerySchema.extend({ account_id: z.string() }) }, responses: { 200: json(pageSchema(controlTransactionSchema, 'ControlTransactionPage')), 400: errors[400], 404: errors[404] } }),
    (c) => {
      const sandbox = c.get('sandbox');
      const query = c.req.valid('query');
      const account = accountOr404(sandbox.stores.accounts, query.account_id)!;
      const list = { list: '_sandbox/transactions', scope: account.id };
      const page = sandbox.stores.transactions.page(account.id, pageRequest(query, list));
      return c.json(pageEnvelope(page, query.limit, (row) => controlTransaction(sandbox, row, account.mode), list), 200);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/transactions/{id}', ...controlOperation, operationId: 'getControlTransaction', summary: 'A transaction with its refunds and deliveries', request: { params: idParam }, responses: { 200: json(transactionDetailSchema), 404: errors[404] } }),
    (c) => {
      const sandbox = c.get('sandbox');
      const tx = sandbox.stores.transactions.byIdAnyAccount(c.req.valid('param').id);
      if (!tx) throw notFound(`Transaction ${c.req.valid('param').id} not found`);
      return c.json(transactionDetail(sandbox, tx), 200);
    },
  );

  for (const [action, outcome] of [['settle', 'SUCCEEDED'], ['fail', 'FAILED']] as const) {
    app.openapi(
      createRoute({ method: 'post', path: `/transactions/{id}/${action}`, ...controlOperation, operationId: `${action}Transaction`, summary: `Outcome ${outcome} now, and its payment webhook`, request: { params: idParam }, responses: { 200: json(controlTransactionSchema), 404: errors[404], 409: errors[409] } }),
      (c) => {
        const sandbox = c.get('sandbox');
        const tx = sandbox.transactions.resolve(c.req.valid('param').id, outcome);
        return c.json(controlTransactionOf(sandbox, tx), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/transactions/{id}/refund',
      ...controlOperation,
      operationId: 'refundTransaction',
      summary: 'Refund as if from the merchant console (default: the remainder)',
      request: { params: idParam, body: { required: false, content: { 'application/json': { schema: z.object({ amount: amountSchema.optional(), reason: z.string().max(255).optional() }) } } } },
      responses: { 201: json(refundSchema, 'Created'), 400: errors[400], 404: errors[404] },
    }),
    (c) => {
      const sandbox = c.get('sandbox');
      const tx = sandbox.stores.transactions.byIdAnyAccount(c.req.valid('param').id);
      if (!tx) throw notFound(`Transaction ${c.req.valid('param').id} not found`);
      const refund = sandbox.transactions.refund(tx.id, c.req.valid('json') ?? {});
      return c.json(refundView(refund), 201);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/clock', ...controlOperation, operationId: 'getClock', summary: 'The sandbox clock', responses: { 200: json(clockSchema) } }),
    (c) => {
      const { clock } = c.get('sandbox');
      return c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000 }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/clock/advance',
      ...controlOperation,
      operationId: 'advanceClock',
      summary: 'Move the clock forward by seconds or calendar months, running all that falls due, in time order',
      request: { body: { required: true, content: { 'application/json': { schema: clockAdvanceSchema } } } },
      responses: { 200: json(clockAdvancedSchema), 400: errors[400] },
    }),
    async (c) => {
      const sandbox = c.get('sandbox');
      const { seconds, months, wait_for_webhooks: waitForWebhooks } = c.req.valid('json');
      const nowMs = sandbox.clock.nowMs();
      let steps: number;
      try {
        steps = await sandbox.advanceClock(months === undefined ? seconds! : (addInterval(new Date(nowMs), 'month', months).getTime() - nowMs) / 1000, { waitForWebhooks });
      } catch (err) {
        // Refused before anything moved: name the field that asked for too much.
        if (!(err instanceof AdvanceTooLongError)) throw err;
        const pointer = months === undefined ? '/seconds' : '/months';
        throw badRequest(err.message, [{ type: 'value_error', pointer, location: 'body', message: `would run about ${err.estimatedSteps} steps; at most ${MAX_ADVANCE_STEPS} per advance` }]);
      }
      return c.json({ now: isoTimestamp(sandbox.clock.nowMs()), offset_seconds: sandbox.clock.offsetMs() / 1000, steps }, 200);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/deliveries', ...controlOperation, operationId: 'listDeliveries', summary: 'Webhook delivery log with every attempt, newest first', request: { query: pageQuerySchema.extend(accountQuery.shape) }, responses: { 200: json(pageSchema(deliverySchema, 'DeliveryPage')), 400: errors[400], 404: errors[404] } }),
    (c) => {
      const sandbox = c.get('sandbox');
      const { stores } = sandbox;
      const query = c.req.valid('query');
      const account = accountOr404(stores.accounts, query.account_id);
      const list = { list: '_sandbox/deliveries', scope: account?.id ?? '*' };
      const req = pageRequest(query, list);
      const page = account ? stores.deliveries.page(account.id, req) : stores.deliveries.pageAll(req);
      return c.json(pageEnvelope(page, query.limit, (d) => controlDelivery(sandbox, d), list), 200);
    },
  );

  app.openapi(
    createRoute({ method: 'post', path: '/deliveries/{id}/resend', ...controlOperation, operationId: 'resendDelivery', summary: 'Send a delivery again: same body, fresh timestamp and signature', request: { params: idParam }, responses: { 202: json(deliverySchema, 'Queued'), 404: errors[404] } }),
    (c) => {
      const sandbox = c.get('sandbox');
      const row = sandbox.dispatcher.resend(c.req.valid('param').id);
      if (!row) throw notFound(`Delivery ${c.req.valid('param').id} not found`);
      return c.json(controlDelivery(sandbox, row), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/requests',
      ...controlOperation,
      operationId: 'listRequests',
      summary: "The API request log, newest first: one account's, or every request without account_id (401s included); filtered by method, path and status",
      description:
        'Every filter given must hold. `path` is compared with the logged path without its query string, exactly; `path_prefix` matches paths that start with it. Cursors of a filtered page are used with the same filters.',
      request: { query: pageQuerySchema.extend(accountQuery.shape).extend(requestFilterQuery.shape) },
      responses: { 200: json(pageSchema(requestLogEntrySchema, 'RequestLogPage')), 400: errors[400], 404: errors[404] },
    }),
    (c) => {
      const { stores } = c.get('sandbox');
      const query = c.req.valid('query');
      const account = accountOr404(stores.accounts, query.account_id);
      const filter = requestLogFilter(account?.id, query);
      // A cursor is valid for the same list, account and filters only.
      const list = { list: '_sandbox/requests', scope: JSON.stringify([account?.id ?? '*', filter ?? null]) };
      const req = pageRequest(query, list);
      const page = filter ? stores.requestLog.find(filter, req) : account ? stores.requestLog.page(account.id, req) : stores.requestLog.pageAll(req);
      return c.json(pageEnvelope(page, query.limit, requestLogEntry, list), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/reset',
      ...controlOperation,
      operationId: 'resetSandbox',
      summary: 'Empty all data, keep the accounts, credentials and scenarios; optionally rewind the clock to real time',
      request: { body: { required: false, content: { 'application/json': { schema: resetSchema } } } },
      responses: { 200: json(resetResultSchema), 400: errors[400], 413: json(errorSchema, 'Body larger than --body-limit') },
    }),
    (c) => {
      const sandbox = c.get('sandbox');
      const rewindClock = c.req.valid('json')?.rewind_clock ?? false;
      sandbox.reset({ rewindClock });
      return c.json({ status: 'reset' as const, now: isoTimestamp(sandbox.clock.nowMs()), offset_seconds: sandbox.clock.offsetMs() / 1000 }, 200);
    },
  );

  // The change feed, as server-sent events (documented here, served by a plain handler).
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/events',
    ...controlOperation,
    operationId: 'streamEvents',
    summary: 'The change feed as server-sent events',
    description:
      'One `ready` event (`{"now": ...}`), then one `change` event per change, its data a JSON object with a `type` (`transaction.*`, `refund.created`, `subscription.*`, `delivery.attempted`, `request.logged`, `clock.advanced`, ...). A `: keep-alive` comment is sent after 15 seconds without events. A stream that falls more than 1 MiB behind (its client does not read) gets one `dropped` event and is closed. The stream ends when the sandbox stops.',
    responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string', description: 'Server-sent events (event: ready | change; data: JSON)' } } } } },
  });
  app.get('/events', (c) => serveEventStream(c, JSON.stringify({ now: isoTimestamp(c.get('sandbox').clock.nowMs()) })));

  return app;
}
