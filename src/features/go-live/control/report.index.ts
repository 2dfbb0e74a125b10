/**
 * `GET /_sandbox/report`: the findings and coverage the
 * sandbox has gathered from the merchant's traffic, for one account or all.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { reportHandlers, type ReportControlDeps } from './report.handlers.js';
import * as routes from './report.routes.js';

export function reportControlRoutes(deps: ReportControlDeps): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(routes.get, reportHandlers(deps).get);
}
