/**
 * The webhook workbench's control routes: `POST /_sandbox/webhooks/send` queues any body as a
 * signed delivery, `POST /_sandbox/signatures/explain` names why a signature check failed.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { workbenchHandlers, type WorkbenchControlDeps } from './workbench.handlers.js';
import * as routes from './workbench.routes.js';

export function workbenchControlRoutes(deps: WorkbenchControlDeps): OpenAPIHono<AppEnv> {
  const handlers = workbenchHandlers(deps);
  return createRouter<AppEnv>().openapi(routes.send, handlers.send).openapi(routes.explain, handlers.explain);
}
