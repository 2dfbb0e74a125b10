/**
 * `/_sandbox/scenarios`: the loaded scenarios (start-up and run time, in matching order);
 * loading a scenario file at run time (tried first), and removing run-time ones.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { scenarioHandlers, type ScenarioControlDeps } from './scenarios.handlers.js';
import * as routes from './scenarios.routes.js';

export function scenarioControlRoutes(deps: ScenarioControlDeps): OpenAPIHono<AppEnv> {
  const handlers = scenarioHandlers(deps);
  const router = createRouter<AppEnv>();
  router.openAPIRegistry.register('ScenarioFile', routes.scenarioFileComponent());
  return router
    .openapi(routes.list, handlers.list)
    .openapi(routes.load, handlers.load)
    .openapi(routes.remove, handlers.remove)
    .openapi(routes.clear, handlers.clear);
}
