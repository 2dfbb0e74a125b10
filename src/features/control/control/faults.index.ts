/**
 * Control API of the faults merchants script to test their own code (sandbox extension,
 * for the panel and CI): `POST /_sandbox/transactions/{id}/webhook-faults` queues a
 * duplicate, delayed, bad-signature or out-of-order webhook of a transaction, and
 * `POST /_sandbox/check-webhooks` runs the check-webhooks battery against a merchant URL
 * and answers its report.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { faultHandlers, type FaultControlDeps } from './faults.handlers.js';
import * as routes from './faults.routes.js';

export function faultControlRoutes(deps: FaultControlDeps): OpenAPIHono<AppEnv> {
  const handlers = faultHandlers(deps);
  return createRouter<AppEnv>().openapi(routes.injectFault, handlers.injectFault).openapi(routes.checkWebhooks, handlers.checkWebhooks);
}
