/** `GET /_sandbox/requests`: the API request log, filtered by account, method, path and status. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { requestLogHandlers, type RequestLogControlDeps } from './requests.handlers.js';
import * as routes from './requests.routes.js';

export function requestLogControlRoutes(deps: RequestLogControlDeps): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.list, requestLogHandlers(deps).list);
}
