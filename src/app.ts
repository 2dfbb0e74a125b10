/**
 * `createApp(options)`: the whole sandbox as a Hono app with no socket, for tests
 * (`app.request(...)`) and for the server. /v4 is the emulated API, /_sandbox the control
 * API, /pay the checkout payment page, / the panel, /openapi.json the OpenAPI document, /reference
 * its API reference page (Redoc, offline).
 * `compose.ts` builds the core and the features (each its own services); here the core's HTTP
 * part is built: the app-wide guards, the /v4 pipeline (`core/http/pipeline.ts`: its steps in
 * order), the control API's body gate, the error envelope, the OpenAPI
 * document, the docs and the reference page. Each feature then mounts its own routes with
 * `register(ctx)` (`RouteContext`: the routers, the pipeline and the core).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, ErrorHandler } from 'hono';
import { composeSandbox, type Features, type PipelineServices, type SandboxLifecycle, type SandboxRuntime } from './compose.js';
import type { Core } from './core/core.js';
import type { SandboxOptions } from './core/config.js';
import type { Db } from './core/db/database.js';
import type { FeatureStores } from './sqlite-store.js';
import { apiAuth, authenticatesAs, VerificationKeys } from './core/http/auth.js';
import { jsonBody } from './core/http/body.js';
import { DOCS_DIR, docsRoutes } from './core/http/docs.js';
import type { ApiEnv, AppEnv } from './core/http/env.js';
import { RouteTable, errorHandler, notFoundHandler } from './core/http/errors.js';
import { apiFaults } from './core/http/faults.js';
import { idempotency } from './core/http/idempotency.js';
import { loadRehearsal } from './core/http/load-rehearsal.js';
import { accountLimit, eventStreamCap } from './core/http/limits.js';
import { serveOpenApiDocument } from './core/http/openapi/document.js';
import { REDOC_BUNDLE_FILE, referenceRoutes } from './core/http/openapi/reference.js';
import { requestOrigin } from './core/http/origin.js';
import type { HttpRecords } from './core/http/ports.js';
import { apiPipeline } from './core/http/pipeline.js';
import { requestLog, type RequestLog } from './core/http/request-log.js';
import type { Feature, RouteContext } from './core/http/route-context.js';
import { createRouter, pathWithoutTrailingSlash } from './core/http/router.js';
import { securityGuard } from './core/http/security.js';
import { requestValidation } from './core/http/validation.js';

/**
 * The features, in the order they register: the /v4 resources, then the control API's, then
 * the pages (the panel last: it serves the root).
 */
function inOrder(f: Features): readonly Feature[] {
  return [
    f.transactions,
    f.subscriptions,
    f.buyers,
    f.sandbox,
    f.checkWebhooks,
    f.accounts,
    f.webhooks,
    f.forwarder,
    f.scenarios,
    f.paymentMethods,
    f.fixtures,
    f.goLive,
    f.paymentPage,
    f.panel,
  ];
}

export interface SandboxApp {
  app: OpenAPIHono<AppEnv>;
  /** What the core owns: options, clock, queries, the change feed, the base URL, snapshots. */
  core: Core;
  /** Each feature's services (for tests and benchmarks that drive them directly). */
  features: Features;
  /** Shutdown, the key pool and the start-up fixtures, as the server drives them. */
  lifecycle: SandboxLifecycle;
  /** The HTTP layer's own records (idempotency keys, the request log), over the sandbox's database. */
  httpRecords: HttpRecords;
  /** Each feature's storage, for tests and benchmarks that seed or inspect records (no router gets them). */
  stores: FeatureStores;
  /** The database handle, for tests and benchmarks that inspect or seed it. */
  db: Db;
}

/**
 * The core's routers and the /v4 pipeline (`core/http/pipeline.ts`, where its order is written),
 * handed to each feature's `register`: /v4 behind the pipeline's front; the bare `/buyers` of
 * the spec's pagination example (no faults); /_sandbox behind the body gate; the pages.
 */
function routeContext(
  core: Core,
  httpRecords: HttpRecords,
  services: PipelineServices,
  log: RequestLog,
  onError: ErrorHandler<ApiEnv>,
): RouteContext {
  const { queries, options, clock } = core;
  // The JWT keys parsed once for this app, shared by authentication and the rate limit's check.
  const keys = new VerificationKeys();
  const pipeline = apiPipeline({
    clock,
    log,
    // `--rate-limit` and `--latency`, each account's own settings first; a request spends an
    // account's tokens only when its token authenticates as that account.
    rehearsal: loadRehearsal({
      settingsOf: (accountId) => services.loadSettings.of(accountId),
      authenticatesAs: (authorization, accountId) =>
        authenticatesAs(authorization, accountId, queries.accounts, Date.now(), keys, (secret) => core.apiKeys.authenticate(secret)),
    }),
    faults: apiFaults({ scenarios: services.scenarios }),
    auth: apiAuth({ accounts: queries.accounts, apiKeys: core.apiKeys, keys }),
    validRequest: requestValidation({ webhookTargetRefused: (url) => core.webhookTargetRefused(url) }),
    idempotent: idempotency({ records: httpRecords.idempotency, clock, atomically: (work) => core.atomically(work) }),
    bodyLimit: options.bodyLimit,
    onError,
  });

  const api = createRouter<ApiEnv>();
  api.use('*', pipeline.front);
  const bare = createRouter<ApiEnv>();
  bare.use('/buyers', pipeline.frontWithoutFaults);
  const controlApi = createRouter<AppEnv>();
  controlApi.use('*', jsonBody({ maxSize: options.bodyLimit }));

  return {
    api,
    bare,
    control: controlApi,
    pages: createRouter<AppEnv>(),
    pipeline: { secured: pipeline.secured, create: pipeline.create },
    subscribeRequests: log.subscribe,
    httpRecords,
    // Without --public-url, links use the origin the request came in on (its Host).
    baseUrl: (c: Context) => (options.publicUrl === undefined ? (requestOrigin(c) ?? core.baseUrl) : core.baseUrl),
    core,
  };
}

/** Builds the sandbox and its app (`runtime`: where it logs, how it POSTs webhooks; defaults: a new text logger, node:http). */
export function createApp(options: Partial<SandboxOptions> = {}, runtime: SandboxRuntime = {}): SandboxApp {
  const { core, features, lifecycle, pipeline, httpRecords, stores, db, logger } = composeSandbox(options, runtime);
  // `GET /v4/transactions/` is answered like `GET /v4/transactions`.
  const app = createRouter<AppEnv>({ getPath: pathWithoutTrailingSlash });
  const routes = new RouteTable();

  const onError = errorHandler(logger);
  app.onError(onError);
  const log = requestLog({
    requestLog: httpRecords.requestLog,
    emit: (type, accountId, data) => core.emit(type, accountId, data),
    listens: (type) => core.events.listens(type),
    clock: core.clock,
  });
  // A request answered over a socket is heard by the request log's subscribers after its answer
  // is written: before any other request is handled, all of them have been. Then the Host,
  // origin and admin-token checks, before any route; `nosniff` on every answer.
  const guard = securityGuard(core.options);
  app.use('*', (c, next) => {
    log.tellAnswered();
    return guard(c, next);
  });
  app.use('/_sandbox/events', eventStreamCap(core.options.maxEventStreams));
  app.use('/_sandbox/accounts', accountLimit({ max: core.options.maxAccounts, accounts: core.queries.accounts }));

  const ctx = routeContext(core, httpRecords, pipeline, log, onError);
  for (const feature of inOrder(features)) feature.register(ctx);
  app.route('/v4', ctx.api);
  // The spec's pagination example lists buyers without the /v4 prefix.
  app.route('/', ctx.bare);
  app.route('/_sandbox', ctx.control);
  app.route('/reference', referenceRoutes({ redocBundleFile: REDOC_BUNDLE_FILE }));
  app.route('/docs', docsRoutes({ docsDir: DOCS_DIR }));
  app.route('/', ctx.pages);
  serveOpenApiDocument(app, { baseUrl: () => core.baseUrl });

  for (const r of app.routes) routes.add(r.method, r.path);
  app.notFound(notFoundHandler(routes));
  return { app, core, features, lifecycle, httpRecords, stores, db };
}
