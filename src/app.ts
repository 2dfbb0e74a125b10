/**
 * `createApp(options)`: the whole sandbox as a Hono app with no socket, for tests
 * (`app.request(...)`) and for the server. /v4 is the emulated API, /_sandbox the control
 * API, /pay the checkout payment page, / the panel, /openapi.json the OpenAPI document, /reference
 * its API reference page (Redoc, offline).
 * Every OpenAPI router comes from `createRouter` (one validation hook); /v4 has its own
 * context type (`ApiEnv`: an account and its scopes), the rest share `AppEnv`.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { checkWebhooks, type CheckWebhooksOptions } from './check-webhooks/index.js';
import type { SandboxOptions } from './config.js';
import { webhookSigningOf } from './webhooks/signing.js';
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
import { artificialLatency } from './http/latency.js';
import { accountLimit, eventStreamCap } from './http/limits.js';
import { PUBLIC_DIR, panelRoutes } from './http/panel.js';
import { serveOpenApiDocument } from './http/openapi/document.js';
import { REDOC_BUNDLE_FILE, referenceRoutes } from './http/openapi/reference.js';
import { paymentPageRoutes, type PaymentPageDeps } from './http/pay/index.js';
import type { FixtureDeps } from './http/fixtures/apply.js';
import { requestLog } from './http/request-log.js';
import { createRouter, pathWithoutTrailingSlash } from './http/router.js';
import { securityGuard } from './http/security.js';
import { buyerRoutes } from './http/routes/buyers.js';
import { subscriptionRoutes } from './http/routes/subscriptions.js';
import { transactionRoutes } from './http/routes/transactions.js';
import { composeSandbox } from './compose.js';
import type { Sandbox } from './sandbox.js';
import type { Db } from './store/database.js';

export interface SandboxApp {
  app: OpenAPIHono<AppEnv>;
  sandbox: Sandbox;
  /** The database handle, for tests and benchmarks that inspect or seed it. */
  db: Db;
}

/** The emulated API: request log, `--latency` for every method, then the resources. */
function apiRoutes(sandbox: Sandbox): OpenAPIHono<ApiEnv> {
  const v4 = createRouter<ApiEnv>();
  v4.use('*', requestLog);
  v4.use('*', artificialLatency);
  v4.use('*', apiFaults);
  v4.route('/', transactionRoutes());
  v4.route('/', subscriptionRoutes(sandbox.options.restrictedChannelCode));
  v4.route('/', buyerRoutes());
  return v4;
}

/** The check-webhooks battery run from the control API signs as this sandbox's own deliveries do. */
function checkSigningOf(options: SandboxOptions): CheckWebhooksOptions {
  return {
    signing: webhookSigningOf(options),
    timeZone: options.webhookTimezone,
    timeoutMs: options.deliveryTimeoutMs,
  };
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

/** Builds the sandbox and its app. */
export function createApp(options: Partial<SandboxOptions> = {}): SandboxApp {
  const { sandbox, db } = composeSandbox(options);
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
  app.use('/_sandbox/accounts', accountLimit(sandbox.options.maxAccounts));

  app.route('/v4', apiRoutes(sandbox));

  // The spec's pagination example lists buyers without the /v4 prefix.
  const bare = createRouter<ApiEnv>();
  bare.use('/buyers', requestLog);
  bare.use('/buyers', artificialLatency);
  bare.route('/', buyerRoutes('listBuyersWithoutPrefix'));
  app.route('/', bare);

  const control = createRouter<AppEnv>();
  control.use('*', jsonBody);
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

  app.route('/pay', paymentPageRoutes(paymentPageDeps(sandbox)));
  app.route('/reference', referenceRoutes({ redocBundleFile: REDOC_BUNDLE_FILE }));
  app.route('/', panelRoutes({ publicDir: PUBLIC_DIR }));
  serveOpenApiDocument(app, { baseUrl: () => sandbox.baseUrl });

  for (const r of app.routes) routes.add(r.method, r.path);
  app.notFound(notFoundHandler(routes));
  return { app, sandbox, db };
}
