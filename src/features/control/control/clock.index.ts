/** `/_sandbox/clock`: the sandbox clock, and moving it forward; `/_sandbox/accounts/{id}/clock`: one account's own clock. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { accountClockHandlers, clockHandlers, type AccountClockControlDeps, type ClockControlDeps } from './clock.handlers.js';
import * as routes from './clock.routes.js';

export function clockControlRoutes(deps: ClockControlDeps): OpenAPIHono<AppEnv> {
  const handlers = clockHandlers(deps);
  return createRouter<AppEnv>().openapi(routes.get, handlers.get).openapi(routes.advance, handlers.advance);
}

export function accountClockControlRoutes(deps: AccountClockControlDeps): OpenAPIHono<AppEnv> {
  const handlers = accountClockHandlers(deps);
  return createRouter<AppEnv>().openapi(routes.getAccount, handlers.get).openapi(routes.advanceAccount, handlers.advance);
}
