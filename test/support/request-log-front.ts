/**
 * An app whose only front is the request log's part of the /v4 pipeline: each request's entry
 * is opened on arrival and written once it is answered, as `core/http/pipeline.ts` does.
 */
import { Hono } from 'hono';
import type { ApiEnv } from '../../src/core/http/env.js';
import { newExchange } from '../../src/core/http/exchange.js';
import type { requestLog } from '../../src/core/http/request-log.js';

export function requestLogApp(log: ReturnType<typeof requestLog>): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use('*', async (c, next) => {
    const exchange = newExchange();
    c.set('exchange', exchange);
    const logged = log.arrive(c, exchange);
    await next();
    await logged({ played: false, executed: undefined });
  });
  return app;
}
