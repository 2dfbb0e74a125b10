/**
 * The scenarios feature: the rules loaded at start (`--scenario`, else the default file),
 * run-time scenarios over them, and their /_sandbox routes (`control.ts`). This file is its
 * public surface too.
 */
import type { CoreParts } from '../../core/core.js';
import { defaultScenarioPath, type SandboxOptions } from '../../core/config.js';
import type { Feature } from '../../core/http/route-context.js';
import { scenarioControlRoutes } from './control.js';
import { ScenarioError, parseScenario } from './load.js';
import type { ScenarioSummary } from './match.js';
import { RUNTIME_SOURCE, createScenarioPolicy, loadConfiguredScenarios, type LoadedScenarioPolicy, type ScenarioOrigin } from './policy.js';
import { createScenarioControl, type ScenarioControl } from './scenario-control.js';
import type { ScheduledStepsRepo } from './vocabulary.js';
import { scheduledStepsStore } from './scheduled-steps-store.js';

export { createScenarioRunner } from './runner.js';
export type { ScenarioMatch } from './schema.js';
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
  WebhookFault,
} from './vocabulary.js';
export { scenariosMigrations } from './migrations.js';

export interface ScenariosFeature extends Feature {
  /** The loaded scenario rules. */
  policy: LoadedScenarioPolicy;
  /** Scenarios loaded at run time: `loadScenario` (tried before every scenario loaded at start-up; a 400 with the loader's message when bad), `removeScenario`, `clearScenarios`. Not persisted. */
  runtime: ScenarioControl<ScenarioSummary & { origin: ScenarioOrigin }>;
  /** The steps a rule's script schedules on the clock: the transactions store them, the scenario runner plays them, the payment page reads them. */
  steps: ScheduledStepsRepo;
}

/**
 * The rules of `--scenario` (else the default file), read before anything else is opened.
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad file.
 */
export function loadScenarioPolicy(options: Pick<SandboxOptions, 'scenario'>): LoadedScenarioPolicy {
  return createScenarioPolicy(loadConfiguredScenarios(options.scenario, defaultScenarioPath()));
}

export function createScenariosFeature(
  core: Pick<CoreParts, 'feed' | 'db' | 'accountClocks'>,
  policy: LoadedScenarioPolicy,
): ScenariosFeature {
  const steps = scheduledStepsStore(core.db, core.accountClocks);
  const runtime = createScenarioControl({
    parse: (json) => parseScenario(json, RUNTIME_SOURCE),
    rejection: (err) => (err instanceof ScenarioError ? err : undefined),
    policy,
    feed: core.feed,
  });
  return {
    policy,
    runtime,
    steps,
    register: (ctx) => ctx.control.route('/', scenarioControlRoutes({ scenarios: policy, control: runtime })),
  };
}
