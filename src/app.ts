/**
 * `createApp(options)`: the whole sandbox as a Hono app with no socket, for tests
 * (`app.request(...)`) and for the server. /v4 is the emulated API, /_sandbox the control
 * API, /pay the checkout payment page, / the panel, /openapi.json the OpenAPI document.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import type { SandboxOptions } from './config.js';
import { jsonBody } from './http/body.js';
import { controlRoutes } from './http/control/index.js';
import { paymentMethodControlRoutes } from './http/control/payment-methods.js';
import { subscriptionControlRoutes } from './http/control/subscriptions.js';
import type { AppEnv } from './http/env.js';
import { RouteTable, notFoundHandler, onError, validationHook } from './http/errors.js';
import { artificialLatency } from './http/idempotency.js';
import { panelRoutes } from './http/panel.js';
import { paymentPageRoutes } from './http/pay.js';
import { requestLog } from './http/request-log.js';
import { buyerRoutes } from './http/routes/buyers.js';
import type { Hook } from './http/routes/hook.js';
import { subscriptionRoutes } from './http/routes/subscriptions.js';
import { transactionRoutes } from './http/routes/transactions.js';
import { warnUnknownFields } from './http/unknown-fields.js';
import { composeSandbox } from './compose.js';
import type { Sandbox } from './sandbox.js';
import type { Db } from './store/database.js';

export interface SandboxApp {
  app: OpenAPIHono<AppEnv>;
  sandbox: Sandbox;
  /** The database handle, for tests and benchmarks that inspect or seed it. */
  db: Db;
}

/** The validation hook: a 400 envelope on failure; on success, notes ignored unknown fields. */
const hook: Hook = (result, c) => {
  const ctx = c as unknown as Context<AppEnv>;
  if (!result.success) return validationHook(result.error as ZodError, ctx, result.target);
  if (result.target === 'json') warnUnknownFields(ctx, ctx.get('body'), result.data);
  return undefined;
};

/** Builds the sandbox and its app. */
export function createApp(options: Partial<SandboxOptions> = {}): SandboxApp {
  const { sandbox, db } = composeSandbox(options);
  const app = new OpenAPIHono<AppEnv>({ defaultHook: hook });
  const routes = new RouteTable();

  app.use('*', async (c, next) => {
    c.set('sandbox', sandbox);
    await next();
  });
  app.onError(onError);

  // The emulated API.
  const v4 = new OpenAPIHono<AppEnv>({ defaultHook: hook });
  v4.use('*', requestLog);
  v4.use('*', async (c, next) => {
    if (c.req.method === 'GET') await artificialLatency(c);
    await next();
  });
  v4.route('/', transactionRoutes(hook));
  v4.route('/', subscriptionRoutes(hook));
  v4.route('/', buyerRoutes(hook));
  app.route('/v4', v4);

  // The spec's pagination example lists buyers without the /v4 prefix.
  const bare = new OpenAPIHono<AppEnv>({ defaultHook: hook });
  bare.use('/buyers', requestLog);
  bare.route('/', buyerRoutes(hook));
  app.route('/', bare);

  const control = new OpenAPIHono<AppEnv>({ defaultHook: hook });
  control.use('*', jsonBody);
  control.route('/', controlRoutes(hook));
  control.route('/', subscriptionControlRoutes(hook));
  control.route('/', paymentMethodControlRoutes(hook));
  app.route('/_sandbox', control);

  app.route('/pay', paymentPageRoutes());
  app.route('/', panelRoutes());

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'payment-sandbox',
      version: '0.1.0',
      description: 'Local emulator of the Payment Service API. Paths under /_sandbox and fields marked "Sandbox extension" are not part of the emulated API.',
    },
    servers: [{ url: '/' }],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: 'sk_test_ API key or RS256 JWT' });

  for (const r of app.routes) routes.add(r.method, r.path);
  app.notFound(notFoundHandler(routes));
  return { app, sandbox, db };
}
