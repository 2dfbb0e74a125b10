/** `/_sandbox/subscriptions`: every account's subscriptions with their charges, and cancelling one. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { subscriptionHandlers, type SubscriptionControlDeps } from './subscriptions.handlers.js';
import * as routes from './subscriptions.routes.js';

export function subscriptionControlRoutes(deps: SubscriptionControlDeps): OpenAPIHono<AppEnv> {
  const handlers = subscriptionHandlers(deps);
  return createRouter<AppEnv>().openapi(routes.list, handlers.list).openapi(routes.cancel, handlers.cancel);
}
