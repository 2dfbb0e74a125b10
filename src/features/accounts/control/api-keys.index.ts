/**
 * Restricted API keys in the control API (sandbox extension):
 * `POST /_sandbox/accounts/{account_id}/api-keys` mints an `sk_test_` key limited to the
 * scopes given (its secret in this answer only), `GET` lists the account's keys (redacted),
 * `DELETE .../api-keys/{key_id}` revokes one.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { apiKeyHandlers, type ApiKeyControlDeps } from './api-keys.handlers.js';
import * as routes from './api-keys.routes.js';

export function apiKeyControlRoutes(deps: ApiKeyControlDeps): OpenAPIHono<AppEnv> {
  const handlers = apiKeyHandlers(deps);
  return createRouter<AppEnv>()
    .openapi(routes.create, handlers.create)
    .openapi(routes.list, handlers.list)
    .openapi(routes.revoke, handlers.revoke);
}
