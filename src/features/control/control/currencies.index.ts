/** `GET /_sandbox/currencies`: the minor-unit exponent of every accepted currency; it needs no port. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import * as handlers from './currencies.handlers.js';
import * as routes from './currencies.routes.js';

export function currencyControlRoutes(): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.list, handlers.list);
}
