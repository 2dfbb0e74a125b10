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
import { checkWebhooks, type CheckWebhooksOptions } from './features/check-webhooks/index.js';
import type { SandboxOptions } from './core/config.js';
import { webhookSigningOf } from './core/webhooks/signing.js';
import { apiAuth } from './core/http/auth.js';
import { jsonBody } from './core/http/body.js';
import { accountControlRoutes, accountSettingsRoutes } from './features/accounts/index.js';
import { apiKeyControlRoutes } from './features/accounts/index.js';
import { accountClockControlRoutes, clockControlRoutes } from './features/control/index.js';
import { currencyControlRoutes } from './features/control/index.js';
import { deliveryControlRoutes } from './features/webhooks/index.js';
import { eventControlRoutes } from './features/control/index.js';
import { faultControlRoutes } from './features/control/index.js';
import { fixtureControlRoutes } from './features/fixtures/index.js';
import { healthControlRoutes } from './features/control/index.js';
import { paymentMethodControlRoutes } from './features/payment-methods/index.js';
import { reportControlRoutes } from './features/go-live/index.js';
import { requestLogControlRoutes } from './features/control/index.js';
import { resetControlRoutes } from './features/control/index.js';
import { scenarioControlRoutes } from './features/scenarios/index.js';
import { subscriptionControlRoutes } from './features/subscriptions/index.js';
import { transactionControlRoutes } from './features/transactions/index.js';
import { controlViews } from './features/control/index.js';
import { webhookHandlerRoutes } from './features/webhooks/index.js';
import { webhookKeyControlRoutes } from './features/webhooks/index.js';
import { loadFixtures } from './features/fixtures/index.js';
import type { ApiEnv, AppEnv } from './core/http/env.js';
import type { Repositories } from './core/domain/ports.js';
import type { HttpRecords } from './core/http/ports.js';
import { RouteTable, errorHandler, notFoundHandler } from './core/http/errors.js';
import { apiFaults } from './core/http/faults.js';
import { idempotency } from './core/http/idempotency.js';
import { loadRehearsal } from './core/http/load-rehearsal.js';
import { onAccountClock } from './core/http/account-clock.js';
import { accountLimit, eventStreamCap } from './core/http/limits.js';
import { PUBLIC_DIR, panelRoutes } from './features/panel/index.js';
import { DOCS_DIR, docsRoutes } from './core/http/docs.js';
import { serveOpenApiDocument } from './core/http/openapi/document.js';
import { REDOC_BUNDLE_FILE, referenceRoutes } from './core/http/openapi/reference.js';
import { paymentPageRoutes, type PaymentPageDeps } from './features/payment-page/index.js';
import type { FixtureDeps } from './features/fixtures/index.js';
import { requestLog } from './core/http/request-log.js';
import { createRouter, pathWithoutTrailingSlash } from './core/http/router.js';
import { securityGuard } from './core/http/security.js';
import { buyerRoutes } from './features/buyers/index.js';
import type { ApiPipeline } from './core/http/pipeline.js';
import { subscriptionRoutes } from './features/subscriptions/index.js';
import { transactionRoutes } from './features/transactions/index.js';
import { requestValidation } from './core/http/validation.js';
import { composeSandbox, type SandboxRuntime } from './compose.js';
import type { Sandbox } from './sandbox.js';
import type { Db } from './core/db/database.js';
import type { Context } from 'hono';
import { requestOrigin } from './core/http/origin.js';
import { goLiveObserver } from './features/go-live/index.js';

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
    clock,
    observers: [
      goLiveObserver({
        accounts: queries.accounts,
        transactions: queries.transactions,
        goLive: sandbox.goLive,
        clock,
        faultPlayedOn: faults.playedOn,
      }),
    ],
  });
  const rehearsal = loadRehearsal({ settingsOf: (accountId) => sandbox.loadSettings.of(accountId) });
  const latency = rehearsal.latency;
  // Without --public-url, payment links use the origin the request came in on (its Host).
  const baseUrl = (c: Context): string => (options.publicUrl === undefined ? (requestOrigin(c) ?? sandbox.baseUrl) : sandbox.baseUrl);

  const accountClock = onAccountClock(clock);
  const v4 = createRouter<ApiEnv>();
  v4.use('*', accountClock);
  v4.use('*', logged);
  v4.use('*', rehearsal.rateLimit);
  v4.use('*', latency);
  v4.use('*', faults.middleware);
  v4.route('/', transactionRoutes({ queries: queries.transactions, transactions: sandbox.transactions, pipeline, baseUrl }));
  v4.route(
    '/',
    subscriptionRoutes({
      queries: queries.subscriptions,
      subscriptions: sandbox.subscriptions,
      pipeline,
      clock,
      restrictedChannelCode: options.restrictedChannelCode,
      baseUrl,
    }),
  );
  v4.route('/', buyerRoutes({ buyers: queries.buyers, secured }));

  const bare = createRouter<ApiEnv>();
  bare.use('/buyers', accountClock);
  bare.use('/buyers', logged);
  bare.use('/buyers', rehearsal.rateLimit);
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
  const views = controlViews({
    baseUrl: () => sandbox.baseUrl,
    accounts,
    transactions: queries.transactions,
    deliveries: queries.deliveries,
  });
  const control = createRouter<AppEnv>();
  control.use('*', jsonBody({ maxSize: sandbox.options.bodyLimit }));
  control.route('/', healthControlRoutes({ clock, accounts: sandbox.accounts }));
  control.route(
    '/',
    accountControlRoutes({ accounts, merchantAccounts: sandbox.accounts, webhookPublicKeyPem: sandbox.webhookPublicKeyPem }),
  );
  control.route('/', currencyControlRoutes());
  control.route('/', webhookKeyControlRoutes());
  control.route('/', transactionControlRoutes({ accounts, transactions: queries.transactions, service: sandbox.transactions, views }));
  control.route('/', clockControlRoutes({ clock, control: sandbox.control }));
  control.route('/', accountClockControlRoutes({ accounts, control: sandbox.control }));
  control.route(
    '/',
    accountSettingsRoutes({
      accounts,
      loadSettings: sandbox.loadSettings,
      emit: (type, accountId, data) => sandbox.emit(type, accountId, data),
    }),
  );
  control.route('/', deliveryControlRoutes({ accounts, deliveries: queries.deliveries, dispatcher: sandbox.dispatcher, views }));
  control.route('/', requestLogControlRoutes({ accounts, requestLog: httpRecords.requestLog }));
  control.route('/', resetControlRoutes({ clock, control: sandbox.control }));
  control.route('/', eventControlRoutes({ clock, events: sandbox.events }));
  control.route('/', subscriptionControlRoutes({ accounts, subscriptions: queries.subscriptions, service: sandbox.subscriptions, views }));
  control.route(
    '/',
    scenarioControlRoutes({
      scenarios: sandbox.scenarios,
      control: sandbox.runtimeScenarios,
    }),
  );
  control.route('/', paymentMethodControlRoutes());
  control.route('/', apiKeyControlRoutes({ apiKeys: sandbox.apiKeys }));
  control.route('/', webhookHandlerRoutes());
  control.route(
    '/',
    fixtureControlRoutes({
      clock,
      loadFixtures: (sources) => loadFixtures(fixtureDeps(sandbox), sources),
      snapshot: () => sandbox.snapshot(),
      restrictedChannelCode: sandbox.options.restrictedChannelCode,
    }),
  );
  control.route('/', reportControlRoutes({ accounts, goLive: sandbox.goLive }));
  control.route(
    '/',
    faultControlRoutes({
      webhookFaults: sandbox.webhookFaults,
      views,
      webhookTargetRefused: (url) => sandbox.webhookTargetRefused(url),
      checkWebhooks: (url) =>
        checkWebhooks(url, { ...checkSigningOf(sandbox.options), guard: (address, port) => sandbox.webhookConnectRefused(address, port) }),
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
    advanceClockInline: (seconds) => sandbox.control.advanceClockInline(seconds),
  };
}

/** Builds the sandbox and its app (`runtime.logger`: where it logs; default a new text logger). */
export function createApp(options: Partial<SandboxOptions> = {}, runtime: SandboxRuntime = {}): SandboxApp {
  const { sandbox, httpRecords, repos, db, logger } = composeSandbox(options, runtime);
  // `GET /v4/transactions/` is answered like `GET /v4/transactions`.
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
