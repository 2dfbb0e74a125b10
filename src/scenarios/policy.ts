/**
 * The scenario rules as a policy the domain asks (`domain/ports.ts` → `ScenarioPolicy`):
 * which rule decides a new transaction or subscription (`match.ts`), and the script of
 * outcome, refunds and webhook failures its steps make. Pure decisions over the loaded
 * scenario files: no clock, no storage. The steps that wait for the clock are played by
 * `runner.ts`.
 */
import type { RuleSnapshot, SimulatedFailures, WebhookFault } from '../domain/entities.js';
import type { ChargeScript, MatchInput, ScenarioPolicy } from '../domain/ports.js';
import { DEFAULT_SCENARIO_PATH, loadScenarios, type LoadedScenario } from './load.js';
import { describeScenarios, findRule, type RuleMatch, type ScenarioSummary } from './match.js';
import type { PaymentOutcome, ScenarioRule, ScenarioStep } from './schema.js';

/** `scenario/rule`, as stored in `transactions.scenario_rule`. */
export function ruleLabel(match: RuleMatch): string {
  return `${match.scenario}/${match.rule.name}`;
}

/** The simulated webhook failures of a rule's steps, if it has a `webhook_failures` step. */
export function webhookFailuresOf(steps: readonly ScenarioStep[]): SimulatedFailures | undefined {
  for (const step of steps) {
    if ('webhook_failures' in step) return { count: step.webhook_failures, status: step.status };
  }
  return undefined;
}

/** The webhook faults of a rule's steps (`webhook_fault`), in the order written. */
export function webhookFaultsOf(steps: readonly ScenarioStep[]): WebhookFault[] {
  return steps.flatMap((step) => ('webhook_fault' in step ? [{ kind: step.webhook_fault, ...(step.seconds !== undefined ? { seconds: step.seconds } : {}) }] : []));
}

/**
 * The script of a rule's steps for one transaction: its outcome step (or `defaultOutcome`
 * at once when it has none), its refunds and its webhook failures. Renewal steps are ignored
 * here; `renewalOutcome` reads them.
 */
export function scriptOf(steps: readonly ScenarioStep[], defaultOutcome: PaymentOutcome | null = null): ChargeScript {
  const outcome = steps.find((step) => 'outcome' in step);
  return {
    outcome: outcome && 'outcome' in outcome ? outcome.outcome : defaultOutcome,
    afterSeconds: outcome && 'outcome' in outcome ? outcome.after_seconds : 0,
    refunds: steps.flatMap((step) =>
      'refund' in step ? [{ amount: step.refund.amount, reason: step.refund.reason, afterSeconds: step.after_seconds }] : [],
    ),
    webhookFailures: webhookFailuresOf(steps),
  };
}

/**
 * The outcome of a renewal charge attempt: FAILED when the rule's `renewal_fails` names the
 * renewal, or the next entry of `renewal_outcomes`; SUCCEEDED otherwise.
 */
export function renewalOutcome(steps: readonly ScenarioStep[], renewal: number, renewalAttemptsBefore: number): PaymentOutcome {
  for (const step of steps) {
    if ('renewal_fails' in step && step.renewal_fails.includes(renewal)) return 'FAILED';
    if ('renewal_outcomes' in step) return step.renewal_outcomes[renewalAttemptsBefore] ?? 'SUCCEEDED';
  }
  return 'SUCCEEDED';
}

/**
 * Loads the `--scenario` files, then the default scenario (rules are tried in that order).
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad file.
 */
export function loadConfiguredScenarios(files: readonly string[]): LoadedScenario[] {
  return loadScenarios([...files, DEFAULT_SCENARIO_PATH]);
}

/** The policy, plus what the control API shows of the loaded scenarios. */
export interface LoadedScenarioPolicy extends ScenarioPolicy {
  readonly scenarios: readonly LoadedScenario[];
  /** The loaded scenarios as `GET /_sandbox/scenarios` shows them. */
  describe(): ScenarioSummary[];
  /** The loaded rule a `scenario/rule` label names, or null (e.g. a file no longer loaded). */
  ruleByLabel(label: string | null): ScenarioRule | null;
  /** The `api_fault` of the first rule matching a create call, if that rule has one (http/faults.ts plays it). */
  apiFaultFor(input: MatchInput): { rule: string; fault: string } | null;
  /** The `webhook_fault` steps of the rule `label` names (the outbox plays them on each webhook). */
  webhookFaults(label: string | null): WebhookFault[];
}

/** A rule snapshot's steps, as the loader validated them when the snapshot was taken. */
const stepsOf = (rule: RuleSnapshot | null): readonly ScenarioStep[] => (rule ? (rule.steps as readonly ScenarioStep[]) : []);

export function createScenarioPolicy(scenarios: readonly LoadedScenario[]): LoadedScenarioPolicy {
  const ruleByLabel = (label: string | null): ScenarioRule | null => {
    if (label === null) return null;
    for (const scenario of scenarios) {
      for (const rule of scenario.rules) if (`${scenario.name}/${rule.name}` === label) return rule;
    }
    return null;
  };
  return {
    scenarios,
    describe: () => describeScenarios([...scenarios]),
    ruleByLabel,
    forTransaction(input) {
      const found = findRule([...scenarios], input);
      return found ? { rule: ruleLabel(found), script: scriptOf(found.rule.steps) } : null;
    },
    forSubscription(input) {
      const found = findRule([...scenarios], input);
      return found ? { label: ruleLabel(found), steps: found.rule.steps } : null;
    },
    firstChargeScript: (rule) => scriptOf(stepsOf(rule), 'SUCCEEDED'),
    renewalScript: (rule, renewal, attemptsBefore) => {
      const steps = stepsOf(rule);
      return { outcome: renewalOutcome(steps, renewal, attemptsBefore), afterSeconds: 0, refunds: [], webhookFailures: webhookFailuresOf(steps) };
    },
    apiFaultFor(input) {
      const found = findRule([...scenarios], input);
      const step = found?.rule.steps.find((s) => 'api_fault' in s);
      return found && step && 'api_fault' in step ? { rule: ruleLabel(found), fault: step.api_fault } : null;
    },
    webhookFaults(label) {
      const rule = ruleByLabel(label);
      return rule ? webhookFaultsOf(rule.steps) : [];
    },
    simulatedFailures(label) {
      const rule = ruleByLabel(label);
      return rule ? webhookFailuresOf(rule.steps) : undefined;
    },
  };
}
