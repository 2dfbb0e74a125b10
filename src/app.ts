/**
 * `createApp(options)`: the whole sandbox as a Hono app with no socket, for tests
 * (`app.request(...)`) and for the server. /v4 is the emulated API, /_sandbox the control
 * API, /pay the checkout payment page, / the panel, /openapi.json the OpenAPI document, /reference
 * its API reference page (Redoc, offline).
 * The core's part is built here: the app-wide guards, the /v4 pipeline (request log, latency,
 * faults, auth, validation, idempotency), the control API's body gate, the error envelope, the
 * OpenAPI document, the docs and the reference page. Each feature then mounts its own routes
 * with `register(ctx)` (`RouteContext`: the routers, the pipeline and the sandbox's services).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { composeSandbox, type SandboxRuntime } from './compose.js';
import type { SandboxOptions } from './core/config.js';
import type { Db } from './core/db/database.js';
import type { Repositories } from './core/domain/ports.js';
import { apiAuth } from './core/http/auth.js';
import { jsonBody } from './core/http/body.js';
import { DOCS_DIR, docsRoutes } from './core/http/docs.js';
import type { ApiEnv, AppEnv } from './core/http/env.js';
import { RouteTable, errorHandler, notFoundHandler } from './core/http/errors.js';
import { apiFaults } from './core/http/faults.js';
import { idempotency } from './core/http/idempotency.js';
import { loadRehearsal } from './core/http/load-rehearsal.js';
import { onAccountClock } from './core/http/account-clock.js';
import { accountLimit, eventStreamCap } from './core/http/limits.js';
import { serveOpenApiDocument } from './core/http/openapi/document.js';
import { REDOC_BUNDLE_FILE, referenceRoutes } from './core/http/openapi/reference.js';
import { requestOrigin } from './core/http/origin.js';
import type { HttpRecords } from './core/http/ports.js';
import { requestLog, type RequestObserver } from './core/http/request-log.js';
import type { RouteContext } from './core/http/route-context.js';
import { createRouter, pathWithoutTrailingSlash } from './core/http/router.js';
import { securityGuard } from './core/http/security.js';
import { requestValidation } from './core/http/validation.js';
import * as accounts from './features/accounts/index.js';
import * as buyers from './features/buyers/index.js';
import * as control from './features/control/index.js';
import * as fixtures from './features/fixtures/index.js';
import * as goLive from './features/go-live/index.js';
import * as panel from './features/panel/index.js';
import * as paymentMethods from './features/payment-methods/index.js';
import * as paymentPage from './features/payment-page/index.js';
import * as scenarios from './features/scenarios/index.js';
import * as subscriptions from './features/subscriptions/index.js';
import * as transactions from './features/transactions/index.js';
import * as webhooks from './features/webhooks/index.js';
import type { Sandbox } from './sandbox.js';

/**
 * The features, in the order they register: the /v4 resources, then the control API's, then
 * the pages (the panel last: it serves the root).
 */
const FEATURES: readonly { register(ctx: RouteContext<Sandbox>): void }[] = [
  transactions,
  subscriptions,
  buyers,
  control,
  accounts,
  webhooks,
  scenarios,
  paymentMethods,
  fixtures,
  goLive,
  paymentPage,
  panel,
];

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
 * The core's routers and the /v4 pipeline, handed to each feature's `register`: /v4 behind the
 * request log, `--latency` and the fault header; the bare `/buyers` of the spec's pagination
 * example (no faults); /_sandbox behind the body gate; the pages.
 */
function routeContext(sandbox: Sandbox, httpRecords: HttpRecords): RouteContext<Sandbox> {
  const { queries, options, clock } = sandbox;
  const faults = apiFaults({ scenarios: sandbox.scenarios });
  const observers: RequestObserver[] = [];
  const logged = requestLog({
    requestLog: httpRecords.requestLog,
    emit: (type, accountId, data) => sandbox.emit(type, accountId, data),
    clock,
    observers,
  });
  // `--rate-limit` and `--latency`, each account's own settings first.
  const rehearsal = loadRehearsal({ settingsOf: (accountId) => sandbox.loadSettings.of(accountId) });
  // Each request runs on its account's own clock.
  const accountClock = onAccountClock(clock);

  const api = createRouter<ApiEnv>();
  api.use('*', accountClock);
  api.use('*', logged);
  api.use('*', rehearsal.rateLimit);
  api.use('*', rehearsal.latency);
  api.use('*', faults.middleware);
  const bare = createRouter<ApiEnv>();
  bare.use('/buyers', accountClock);
  bare.use('/buyers', logged);
  bare.use('/buyers', rehearsal.rateLimit);
  bare.use('/buyers', rehearsal.latency);
  const controlApi = createRouter<AppEnv>();
  controlApi.use('*', jsonBody({ maxSize: options.bodyLimit }));

  return {
    api,
    bare,
    control: controlApi,
    pages: createRouter<AppEnv>(),
    pipeline: {
      secured: apiAuth({ accounts: queries.accounts, apiKeys: sandbox.apiKeys, bodyLimit: options.bodyLimit }),
      validRequest: requestValidation({ webhookTargetRefused: (url) => sandbox.webhookTargetRefused(url) }),
      scenarioFault: faults.scenarioFault,
      idempotent: idempotency({ records: httpRecords.idempotency, clock, atomically: (work) => sandbox.atomically(work) }),
    },
    faultPlayedOn: faults.playedOn,
    observe: (observer) => observers.push(observer),
    httpRecords,
    // Without --public-url, links use the origin the request came in on (its Host).
    baseUrl: (c: Context) => (options.publicUrl === undefined ? (requestOrigin(c) ?? sandbox.baseUrl) : sandbox.baseUrl),
    sandbox,
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

  const ctx = routeContext(sandbox, httpRecords);
  for (const feature of FEATURES) feature.register(ctx);
  app.route('/v4', ctx.api);
  // The spec's pagination example lists buyers without the /v4 prefix.
  app.route('/', ctx.bare);
  app.route('/_sandbox', ctx.control);
  app.route('/reference', referenceRoutes({ redocBundleFile: REDOC_BUNDLE_FILE }));
  app.route('/docs', docsRoutes({ docsDir: DOCS_DIR }));
  app.route('/', ctx.pages);
  serveOpenApiDocument(app, { baseUrl: () => sandbox.baseUrl });

  for (const r of app.routes) routes.add(r.method, r.path);
  app.notFound(notFoundHandler(routes));
  return { app, sandbox, httpRecords, repos, db };
}
