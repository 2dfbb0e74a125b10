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
import { accountControlRoutes } from './http/control/accounts/accounts.index.js';
import { apiKeyControlRoutes } from './http/control/api-keys/api-keys.index.js';
import { clockControlRoutes } from './http/control/clock/clock.index.js';
import { currencyControlRoutes } from './http/control/currencies/currencies.index.js';
import { deliveryControlRoutes } from './http/control/deliveries/deliveries.index.js';
import { eventControlRoutes } from './http/control/events/events.index.js';
import { faultControlRoutes } from './http/control/faults/faults.index.js';
import { fixtureControlRoutes } from './http/control/fixtures/fixtures.index.js';
import { healthControlRoutes } from './http/control/health/health.index.js';
import { paymentMethodControlRoutes } from './http/control/payment-methods/payment-methods.index.js';
import { reportControlRoutes } from './http/control/report/report.index.js';
import { requestLogControlRoutes } from './http/control/requests/requests.index.js';
import { resetControlRoutes } from './http/control/reset/reset.index.js';
import { scenarioControlRoutes } from './http/control/scenarios/scenarios.index.js';
import { subscriptionControlRoutes } from './http/control/subscriptions/subscriptions.index.js';
import { transactionControlRoutes } from './http/control/transactions/transactions.index.js';
import { controlViews } from './http/control/views.js';
import { webhookHandlerRoutes } from './http/control/webhook-handlers/webhook-handlers.index.js';
import { webhookKeyControlRoutes } from './http/control/webhook-key/webhook-key.index.js';
import { loadFixtures } from './http/fixtures/apply.js';
import type { ApiEnv, AppEnv } from './http/env.js';
import type { Repositories } from './domain/ports.js';
import type { HttpRecords } from './http/ports.js';
import { RouteTable, errorHandler, notFoundHandler } from './http/errors.js';
import { apiFaults } from './http/faults.js';
import { idempotency } from './http/idempotency.js';
import { artificialLatency } from './http/latency.js';
import { accountLimit, eventStreamCap } from './http/limits.js';
import { PUBLIC_DIR, panelRoutes } from './http/panel.js';
import { DOCS_DIR, docsRoutes } from './http/docs.js';
import { serveOpenApiDocument } from './http/openapi/document.js';
import { REDOC_BUNDLE_FILE, referenceRoutes } from './http/openapi/reference.js';
import { paymentPageRoutes, type PaymentPageDeps } from './http/pay/index.js';
import type { FixtureDeps } from './http/fixtures/apply.js';
import { requestLog } from './http/request-log.js';
import { createRouter, pathWithoutTrailingSlash } from './http/router.js';
import { securityGuard } from './http/security.js';
import { buyerRoutes } from './http/routes/buyers.js';
import type { ApiPipeline } from './http/routes/pipeline.js';
import { subscriptionRoutes } from './http/routes/subscriptions.js';
import { transactionRoutes } from './http/routes/transactions.js';
import { requestValidation } from './http/validation.js';
import { composeSandbox, type SandboxRuntime } from './compose.js';
import type { Sandbox } from './sandbox.js';
import type { Db } from './store/database.js';

export interface SandboxApp {
  app: OpenAPIHono<AppEnv>;
  sandbox: Sandbox;
  /** The HTTP layer's own records (idempotency keys, the request log), over the sandbox's database. */
  httpRecords: HttpRecords;
  /** The repositories, for tests and benchmarks that seed or inspect records (no router gets them). */
  repos: Repositories;
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

/**
 * The control API: each router gets the read-only query ports, views, services and options it
 * uses, built here from the composed sandbox (the order is the OpenAPI document's).
 */
function controlApi(sandbox: Sandbox, httpRecords: HttpRecords): OpenAPIHono<AppEnv> {
  const { queries, clock } = sandbox;
  const accounts = queries.accounts;
  const views = controlViews({ baseUrl: () => sandbox.baseUrl, accounts, transactions: queries.transactions, deliveries: queries.deliveries });
  const control = createRouter<AppEnv>();
  control.use('*', jsonBody({ maxSize: sandbox.options.bodyLimit }));
  control.route('/', healthControlRoutes({ clock, accounts: sandbox.accounts }));
  control.route('/', accountControlRoutes({ accounts, merchantAccounts: sandbox.accounts, webhookPublicKeyPem: sandbox.webhookPublicKeyPem }));
  control.route('/', currencyControlRoutes());
  control.route('/', webhookKeyControlRoutes());
  control.route('/', transactionControlRoutes({ accounts, transactions: queries.transactions, service: sandbox.transactions, views }));
  control.route('/', clockControlRoutes({ clock, control: { advanceClock: (seconds, options) => sandbox.advanceClock(seconds, options) } }));
  control.route('/', deliveryControlRoutes({ accounts, deliveries: queries.deliveries, dispatcher: sandbox.dispatcher, views }));
  control.route('/', requestLogControlRoutes({ accounts, requestLog: httpRecords.requestLog }));
  control.route('/', resetControlRoutes({ clock, control: { reset: (options) => sandbox.reset(options) } }));
  control.route('/', eventControlRoutes({ clock, events: sandbox.events }));
  control.route('/', subscriptionControlRoutes({ accounts, subscriptions: queries.subscriptions, service: sandbox.subscriptions, views }));
  control.route(
    '/',
    scenarioControlRoutes({
      scenarios: sandbox.scenarios,
      control: { loadScenario: (json) => sandbox.loadScenario(json), removeScenario: (name) => sandbox.removeScenario(name), clearScenarios: () => sandbox.clearScenarios() },
    }),
  );
  control.route('/', paymentMethodControlRoutes());
  control.route('/', apiKeyControlRoutes({ apiKeys: sandbox.apiKeys }));
  control.route('/', webhookHandlerRoutes());
  control.route(
    '/',
    fixtureControlRoutes({ clock, loadFixtures: (sources) => loadFixtures(fixtureDeps(sandbox), sources), snapshot: () => sandbox.snapshot(), restrictedChannelCode: sandbox.options.restrictedChannelCode }),
  );
  control.route('/', reportControlRoutes({ accounts, goLive: sandbox.goLive }));
  control.route(
    '/',
    faultControlRoutes({
      webhookFaults: sandbox.webhookFaults,
      views,
      webhookTargetRefused: (url) => sandbox.webhookTargetRefused(url),
      checkWebhooks: (url) => checkWebhooks(url, { ...checkSigningOf(sandbox.options), guard: (address, port) => sandbox.webhookConnectRefused(address, port) }),
    }),
  );
  return control;
}

/** The payment page's ports: read-only queries, the customer's commands, the scenario rules. */
function paymentPageDeps(sandbox: Sandbox): PaymentPageDeps {
  const { queries } = sandbox;
  return {
    transactions: queries.transactions,
    subscriptions: queries.subscriptions,
    accounts: queries.accounts,
    scheduledSteps: queries.scheduledSteps,
    payments: sandbox.transactions,
    trials: sandbox.subscriptions,
    scenarios: sandbox.scenarios,
    customerCancelled: (accountId) => sandbox.goLive.customerCancelled(accountId),
  };
}

/**
 * The ports fixtures are applied through (`POST /_sandbox/fixtures` and start-up fixtures):
 * queries, the creating services, the unit of work and the clock; not the repositories.
 */
export function fixtureDeps(sandbox: Sandbox): FixtureDeps {
  const { queries } = sandbox;
  return {
    options: sandbox.options,
    clock: sandbox.clock,
    queries: { accounts: queries.accounts, transactions: queries.transactions, subscriptions: queries.subscriptions },
    transactions: sandbox.transactions,
    subscriptions: sandbox.subscriptions,
    accounts: sandbox.accounts,
    get baseUrl() {
      return sandbox.baseUrl;
    },
    webhookTargetRefused: (url) => sandbox.webhookTargetRefused(url),
    atomically: (work) => sandbox.atomically(work),
    advanceClockInline: (seconds) => sandbox.advanceClockInline(seconds),
  };
}


/** Builds the sandbox and its app (`runtime.logger`: where it logs; default a new text logger). */
export function createApp(options: Partial<SandboxOptions> = {}, runtime: SandboxRuntime = {}): SandboxApp {
  const { sandbox, httpRecords, repos, db, logger } = composeSandbox(options, runtime);
  // `GET /v4/transactions/` is answered like `GET /v4/transactions` (contract: Loose ends).
  const app = createRouter<AppEnv>({ getPath: pathWithoutTrailingSlash });
  const routes = new RouteTable();

  app.onError(errorHandler(logger));
  // Host, origin and admin-token checks before any route; `nosniff` on every answer.
  app.use('*', securityGuard(sandbox.options));
  app.use('/_sandbox/events', eventStreamCap(sandbox.options.maxEventStreams));
  app.use('/_sandbox/accounts', accountLimit({ max: sandbox.options.maxAccounts, accounts: sandbox.queries.accounts }));

  const api = apiRoutes(sandbox, httpRecords);
  app.route('/v4', api.v4);
  // The spec's pagination example lists buyers without the /v4 prefix.
  app.route('/', api.bare);

  app.route('/_sandbox', controlApi(sandbox, httpRecords));

  app.route('/pay', paymentPageRoutes(paymentPageDeps(sandbox)));
  app.route('/reference', referenceRoutes({ redocBundleFile: REDOC_BUNDLE_FILE }));
  app.route('/docs', docsRoutes({ docsDir: DOCS_DIR }));
  app.route('/', panelRoutes({ publicDir: PUBLIC_DIR }));
  serveOpenApiDocument(app, { baseUrl: () => sandbox.baseUrl });

  for (const r of app.routes) routes.add(r.method, r.path);
  app.notFound(notFoundHandler(routes));
  return { app, sandbox, httpRecords, repos, db };
}
