/** The scenarios feature: what other parts of the sandbox may use of it. */
export { scenarioControlRoutes } from './control/scenarios.index.js';
export { createScenarioRunner } from './runner.js';
export type { ScenarioMatch } from './schema.js';
export { createScenariosFeature, loadScenarioPolicy } from './compose.js';
export type { ScenariosFeature } from './compose.js';
export { scheduledStepsStore } from './scheduled-steps-store.js';
export { PLAN_INTERVALS } from './vocabulary.js';
export type {
  ChargeOutcome,
  ChargeScript,
  MatchInput,
  PlanInterval,
  RuleSnapshot,
  ScenarioPolicy,
  ScheduledStep,
  ScheduledStepQueries,
  ScheduledStepsRepo,
} from './vocabulary.js';
export { scenariosMigrations } from './migrations.js';
