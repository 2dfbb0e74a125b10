/** `GET /_sandbox/webhook-public-key`: the published webhook key (PEM, DER, JWK or X.509); it needs no port. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import * as handlers from './webhook-key.handlers.js';
import * as routes from './webhook-key.routes.js';

export function webhookKeyControlRoutes(): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.get, handlers.get);
}
