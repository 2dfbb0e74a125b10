/** Mounts the scenarios' control routes: list, load at run time, remove. */
import type { RouteContext } from '../../core/http/route-context.js';
import type { ScenarioCatalogue, ScenarioControlDeps } from './control/scenarios.handlers.js';
import { scenarioControlRoutes } from './control/scenarios.index.js';

/** The services the scenario routes use. */
export interface ScenarioFeatureServices {
  scenarios: ScenarioCatalogue;
  runtimeScenarios: ScenarioControlDeps['control'];
}

export function register(ctx: RouteContext, { scenarios, runtimeScenarios }: ScenarioFeatureServices): void {
  ctx.control.route('/', scenarioControlRoutes({ scenarios, control: runtimeScenarios }));
}
