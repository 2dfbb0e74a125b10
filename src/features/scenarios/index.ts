/** The scenarios feature: what other parts of the sandbox may use of it. */
export { scenarioControlRoutes } from './control/scenarios.index.js';
export { createScenarioRunner } from './runner.js';
export type { ScenarioMatch } from './schema.js';
export { createScenariosFeature, loadScenarioPolicy } from './compose.js';
export type { ScenariosFeature } from './compose.js';
