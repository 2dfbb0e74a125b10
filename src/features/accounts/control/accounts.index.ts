/** `/_sandbox/credentials` and `/_sandbox/accounts`: every account's credentials, and new isolated accounts. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { accountHandlers, type AccountControlDeps } from './accounts.handlers.js';
import * as routes from './accounts.routes.js';

export function accountControlRoutes(deps: AccountControlDeps): OpenAPIHono<AppEnv> {
  const handlers = accountHandlers(deps);
  return createRouter<AppEnv>().openapi(routes.credentials, handlers.credentials).openapi(routes.create, handlers.create);
}
