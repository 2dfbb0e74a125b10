/** The scenarios feature: what other parts of the sandbox may use of it. */
export { scenarioControlRoutes } from './control/scenarios.index.js';
export { ScenarioError, parseScenario } from './load.js';
export type { ScenarioSummary } from './match.js';
export { RUNTIME_SOURCE, createScenarioPolicy, loadConfiguredScenarios } from './policy.js';
export type { LoadedScenarioPolicy, ScenarioOrigin } from './policy.js';
export { createScenarioRunner } from './runner.js';
export { createScenarioControl } from './scenario-control.js';
export type { ScenarioControl } from './scenario-control.js';
export type { ScenarioMatch } from './schema.js';
export { createScenariosFeature, loadScenarioPolicy } from './compose.js';
export type { ScenariosFeature } from './compose.js';
