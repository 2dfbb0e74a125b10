/** `GET /_sandbox/webhook-handlers`: the webhook handler in each language (the package's handler files), for the panel's Credentials view. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { webhookHandlerHandlers, type WebhookHandlerOptions } from './webhook-handlers.handlers.js';
import * as routes from './webhook-handlers.routes.js';

export function webhookHandlerRoutes(options: WebhookHandlerOptions = {}): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.list, webhookHandlerHandlers(options).list);
}
