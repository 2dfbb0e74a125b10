/** `POST /_sandbox/reset`: empty all data, keep the accounts and scenarios. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { resetHandlers, type ResetControlDeps } from './reset.handlers.js';
import * as routes from './reset.routes.js';

export function resetControlRoutes(deps: ResetControlDeps): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.reset, resetHandlers(deps).reset);
}
