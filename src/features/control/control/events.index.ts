/** `GET /_sandbox/events`: the change feed as server-sent events (documented in OpenAPI, served by a plain handler). */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { eventHandlers, type EventStreamDeps } from './events.handlers.js';
import * as routes from './events.routes.js';

export function eventControlRoutes(deps: EventStreamDeps): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();
  app.openAPIRegistry.registerPath(routes.stream);
  app.get(routes.stream.path, eventHandlers(deps).stream);
  return app;
}
