/** `/_sandbox/deliveries`: the webhook delivery log with every attempt (bodies on `/deliveries/{id}`), and resending one. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { deliveryHandlers, type DeliveryControlDeps } from './deliveries.handlers.js';
import * as routes from './deliveries.routes.js';

export function deliveryControlRoutes(deps: DeliveryControlDeps): OpenAPIHono<AppEnv> {
  const handlers = deliveryHandlers(deps);
  return createRouter<AppEnv>()
    .openapi(routes.list, handlers.list)
    .openapi(routes.get, handlers.get)
    .openapi(routes.resend, handlers.resend);
}
