/**
 * Control API of the payment-method catalogue (sandbox extension, for the panel, the README
 * and CI): `GET /_sandbox/payment-methods` lists the spec's groups with their channel codes,
 * currencies, country, type and whether a payment waits for the customer's step, as
 * `domain/payment-methods.ts` holds them. It needs no port.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import * as handlers from './payment-methods.handlers.js';
import * as routes from './payment-methods.routes.js';

export function paymentMethodControlRoutes(): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.list, handlers.list);
}
