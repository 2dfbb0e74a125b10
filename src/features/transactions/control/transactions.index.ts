/** `/_sandbox/transactions`: an account's transactions, one with its deliveries, and outcomes and refunds by hand. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { transactionHandlers, type TransactionControlDeps } from './transactions.handlers.js';
import * as routes from './transactions.routes.js';

export function transactionControlRoutes(deps: TransactionControlDeps): OpenAPIHono<AppEnv> {
  const handlers = transactionHandlers(deps);
  return createRouter<AppEnv>()
    .openapi(routes.list, handlers.list)
    .openapi(routes.getOne, handlers.getOne)
    .openapi(routes.settle, handlers.settle)
    .openapi(routes.fail, handlers.fail)
    .openapi(routes.refund, handlers.refund);
}
