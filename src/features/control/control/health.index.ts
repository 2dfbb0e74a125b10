/** `GET /_sandbox/health`: the ready check. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { healthHandlers, type HealthDeps } from './health.handlers.js';
import * as routes from './health.routes.js';

export function healthControlRoutes(deps: HealthDeps): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.get, healthHandlers(deps).get);
}
