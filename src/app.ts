/**
 * `createApp(options)`: the whole sandbox as a Hono app with no socket, for tests
 * (`app.request(...)`) and for the server. /v4 is the emulated API, /_sandbox the control
 * API, /pay the checkout payment page, / the panel, /openapi.json the OpenAPI document, /reference
 * its API reference page (Redoc, offline).
 * Every OpenAPI router comes from `createRouter` (one validation hook); /v4 has its own
 * context type (`ApiEnv`: an account and its scopes, no sandbox), the rest share `AppEnv`.
 * /v4's routers and middleware are given their ports here, built from the composed sandbox
 * (`sandbox.queries`, its services) and the HTTP layer's own records (`httpRecords`).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { checkWebhooks, type CheckWebhooksOptions } from './check-webhooks/index.js';
import type { SandboxOptions } from './config.js';
import { webhookSigningOf } from './webhooks/signing.js';
import { apiAuth } from './http/auth.js';
import { jsonBody } from './http/body.js';
import { apiKeyControlRoutes } from './http/control/api-keys.js';
import { controlRoutes } from './http/control/index.js';
import { faultControlRoutes } from './http/control/faults.js';
import { webhookHandlerRoutes } from './http/control/webhook-handlers.js';
import { fixtureControlRoutes } from './http/control/fixtures.js';
import { paymentMethodControlRoutes } from './http/control/payment-methods.js';
import { reportControlRoutes } from './http/control/report.js';
import { scenarioControlRoutes } from './http/control/scenarios.js';
import { subscriptionControlRoutes } from './http/control/subscriptions.js';
import type { ApiEnv, AppEnv } from './http/env.js';
import { RouteTable, notFoundHandler, onError } from './http/errors.js';
import { apiFaults } from './http/faults.js';
import { idempotency } from './http/idempotency.js';
import { artificialLatency } from './http/latency.js';
import { accountLimit, eventStreamCap } from './http/limits.js';
import { panelRoutes } from './http/panel.js';
import { serveOpenApiDocument } from './http/openapi/document.js';
import { referenceRoutes } from './http/openapi/reference.js';
import { paymentPageRoutes } from './http/pay/index.js';
import { requestLog } from './http/request-log.js';
import type { HttpRecords } from './http/ports.js';
import { createRouter, pathWithoutTrailingSlash } from './http/router.js';
import { securityGuard } from './http/security.js';
import { buyerRoutes } from './http/routes/buyers.js';
import type { ApiPipeline } from './http/routes/pipeline.js';
import { subscriptionRoutes } from './http/routes/subscriptions.js';
import { transactionRoutes } from './http/routes/transactions.js';
import { requestValidation } from './http/validation.js';
import { composeSandbox } from './compose.js';
import type { Sandbox } from './sandbox.js';
import type { Db } from './store/database.js';

export interface SandboxApp {
  app: OpenAPIHono<AppEnv>;
  sandbox: Sandbox;
  /** The HTTP layer's own records (idempotency keys, the request log), for tests that inspect them. */
  httpRecords: HttpRecords;
  /** The database handle, for tests and benchmarks that inspect or seed it. */
  db: Db;
}

/**
 * The emulated API: request log, `--latency` for every method, then the resources (`v4`); and
 * the bare `/buyers` of the spec's pagination example (`bare`, without faults). Each router and
 * middleware is given only the ports it uses, and what it keeps is this app's alone.
 */
function apiRoutes(sandbox: Sandbox, httpRecords: HttpRecords): { v4: OpenAPIHono<ApiEnv>; bare: OpenAPIHono<ApiEnv> } {
  const { queries, options, clock } = sandbox;
  const faults = apiFaults({ scenarios: sandbox.scenarios });
  const secured = apiAuth({ accounts: queries.accounts, apiKeys: sandbox.apiKeys, bodyLimit: options.bodyLimit });
  const pipeline: ApiPipeline = {
    secured,
    validRequest: requestValidation({ webhookTargetRefused: (url) => sandbox.webhookTargetRefused(url) }),
    scenarioFault: faults.scenarioFault,
    idempotent: idempotency({ records: httpRecords.idempotency, clock, atomically: (work) => sandbox.atomically(work) }),
  };
  const logged = requestLog({
    requestLog: httpRecords.requestLog,
    emit: (type, accountId, data) => sandbox.emit(type, accountId, data),
    accounts: queries.accounts,
    transactions: queries.transactions,
    goLive: sandbox.goLive,
    clock,
    faultPlayedOn: faults.playedOn,
  });
  const latency = artificialLatency({ ms: options.latency });
  const baseUrl = (): string => sandbox.baseUrl;

  const v4 = createRouter<ApiEnv>();
  v4.use('*', logged);
  v4.use('*', latency);
  v4.use('*', faults.middleware);
  v4.route('/', transactionRoutes({ queries: queries.transactions, transactions: sandbox.transactions, pipeline, baseUrl }));
  v4.route('/', subscriptionRoutes({ queries: queries.subscriptions, subscriptions: sandbox.subscriptions, pipeline, clock, restrictedChannelCode: options.restrictedChannelCode, baseUrl }));
  v4.route('/', buyerRoutes({ buyers: queries.buyers, secured }));

  const bare = createRouter<ApiEnv>();
  bare.use('/buyers', logged);
  bare.use('/buyers', latency);
  bare.route('/', buyerRoutes({ buyers: queries.buyers, secured }, 'listBuyersWithoutPrefix'));
  return { v4, bare };
}

/** The check-webhooks battery run from the control API signs as this sandbox's own deliveries do. */
function checkSigningOf(options: SandboxOptions): CheckWebhooksOptions {
  return {
    signing: webhookSigningOf(options),
    timeZone: options.webhookTimezone,
    timeoutMs: options.deliveryTimeoutMs,
  };
}

/** Builds the sandbox and its app. */
export function createApp(options: Partial<SandboxOptions> = {}): SandboxApp {
  const { sandbox, httpRecords, db } = composeSandbox(options);
  // `GET /v4/transactions/` is answered like `GET /v4/transactions` (contract: Loose ends).
  const app = createRouter<AppEnv>({ getPath: pathWithoutTrailingSlash });
  const routes = new RouteTable();

  app.use('*', async (c, next) => {
    c.set('sandbox', sandbox);
    await next();
  });
  app.onError(onError);
  // Host, origin and admin-token checks before any route; `nosniff` on every answer.
  app.use('*', securityGuard(sandbox.options));
  app.use('/_sandbox/events', eventStreamCap(sandbox.options.maxEventStreams));
  app.use('/_sandbox/accounts', accountLimit({ max: sandbox.options.maxAccounts, accounts: sandbox.queries.accounts }));

  const api = apiRoutes(sandbox, httpRecords);
  app.route('/v4', api.v4);
  // The spec's pagination example lists buyers without the /v4 prefix.
  app.route('/', api.bare);

  const control = createRouter<AppEnv>();
  control.use('*', jsonBody({ maxSize: sandbox.options.bodyLimit }));
  control.route('/', controlRoutes());
  control.route('/', subscriptionControlRoutes());
  control.route('/', paymentMethodControlRoutes());
  control.route('/', scenarioControlRoutes());
  control.route('/', apiKeyControlRoutes());
  control.route('/', webhookHandlerRoutes());
  control.route('/', fixtureControlRoutes());
  control.route('/', reportControlRoutes());
  control.route('/', faultControlRoutes({ checkWebhooks: (url) => checkWebhooks(url, { ...checkSigningOf(sandbox.options), guard: (address, port) => sandbox.webhookConnectRefused(address, port) }) }));
  app.route('/_sandbox', control);

  app.route('/pay', paymentPageRoutes());
  app.route('/reference', referenceRoutes());
  app.route('/', panelRoutes());
  serveOpenApiDocument(app);

  for (const r of app.routes) routes.add(r.method, r.path);
  app.notFound(notFoundHandler(routes));
  return { app, sandbox, httpRecords, db };
}
