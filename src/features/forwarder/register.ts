/** Mounts the listener's control routes: `GET /_sandbox/listen` and `POST /_sandbox/listen/attempts/{id}`. */
import type { RouteContext } from '../../core/http/route-context.js';
import { createRouter } from '../../core/http/router.js';
import type { AppEnv } from '../../core/http/env.js';
import type { Listeners } from './listeners.js';
import { listenHandlers } from './listen.handlers.js';
import * as routes from './listen.routes.js';

export function register(ctx: RouteContext, listeners: Listeners): void {
  const handlers = listenHandlers({ accounts: ctx.core.queries.accounts, listeners, timeoutMs: ctx.core.options.deliveryTimeoutMs });
  const app = createRouter<AppEnv>();
  app.openAPIRegistry.registerPath(routes.stream);
  app.get(routes.stream.path, handlers.stream);
  app.openapi(routes.report, handlers.report);
  ctx.control.route('/', app);
}
