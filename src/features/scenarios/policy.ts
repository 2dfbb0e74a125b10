/**
 * The scenario rules as a policy the domain asks (`vocabulary.ts` → `ScenarioPolicy`):
 * which rule decides a new transaction or subscription (`match.ts`), and the script of
 * outcome, refunds and webhook failures its steps make. Pure decisions over the loaded
 * scenario files: no clock, no storage. The steps that wait for the clock are played by
 * `runner.ts`.
 */
import type { ChargeScript, MatchInput, RuleSnapshot, ScenarioPolicy, WebhookFault } from './vocabulary.js';
import type { SimulatedFailures } from '../../core/domain/entities.js';
import { ScenarioError, loadScenarios, type LoadedScenario } from './load.js';
import { describeScenarios, findRule, type RuleMatch, type ScenarioSummary } from './match.js';
import type { ScenarioRule } from './schema.js';
import type { PaymentOutcome, ScenarioStep } from './step-schema.js';

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
  return steps.flatMap((step) =>
    'webhook_fault' in step ? [{ kind: step.webhook_fault, ...(step.seconds !== undefined ? { seconds: step.seconds } : {}) }] : [],
  );
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
 * Loads the `--scenario` files, then the default scenario at `defaultScenario` (the
 * package's `scenarios/default.json`, found by the composition root); rules are tried in that order.
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad file.
 */
export function loadConfiguredScenarios(files: readonly string[], defaultScenario: string): LoadedScenario[] {
  return loadScenarios([...files, defaultScenario]);
}

/** Where a loaded scenario came from: a start-up file (`--scenario`, the default) or the control API. */
export type ScenarioOrigin = 'startup' | 'runtime';

/** The source label of scenarios loaded at run time. */
export const RUNTIME_SOURCE = 'POST /_sandbox/scenarios';

/** The policy, plus what the control API shows of the loaded scenarios and the scenarios loaded at run time. */
export interface LoadedScenarioPolicy extends ScenarioPolicy {
  /** Every loaded scenario in matching order: run-time ones (newest first), then the start-up files. */
  readonly scenarios: readonly LoadedScenario[];
  /** The loaded scenarios as `GET /_sandbox/scenarios` shows them, in matching order. */
  describe(): Array<ScenarioSummary & { origin: ScenarioOrigin }>;
  /** The loaded rule a `scenario/rule` label names, or null (e.g. a file no longer loaded). */
  ruleByLabel(label: string | null): ScenarioRule | null;
  /**
   * Loads a scenario at run time, tried before every other; one of the same name loaded at
   * run time is replaced (and moves to the front).
   * @throws ScenarioError when a start-up file already has the name.
   */
  addRuntime(scenario: LoadedScenario): { replaced: boolean };
  /** Removes the run-time scenario `name`; false when there is none (a start-up file's name included). */
  removeRuntime(name: string): boolean;
  /** Removes every run-time scenario; how many there were. */
  clearRuntime(): number;
  /** The `api_fault` of the first rule matching a create call, if that rule has one (http/faults.ts plays it). */
  apiFaultFor(input: MatchInput): { rule: string; fault: string } | null;
  /** The `webhook_fault` steps of the rule `label` names (the outbox plays them on each webhook). */
  webhookFaults(label: string | null): WebhookFault[];
}

/** A rule snapshot's steps, as the loader validated them when the snapshot was taken. */
const stepsOf = (rule: RuleSnapshot | null): readonly ScenarioStep[] => (rule ? (rule.steps as readonly ScenarioStep[]) : []);

/**
 * The policy over the start-up scenarios (`loadConfiguredScenarios`), which can take more at
 * run time. The domain sees only `ScenarioPolicy`: it never learns where a rule came from.
 */
export function createScenarioPolicy(startup: readonly LoadedScenario[]): LoadedScenarioPolicy {
  /** Run-time scenarios, newest first. */
  let runtime: LoadedScenario[] = [];
  /** All of them in matching order, rebuilt on each change (matching reads it on every create). */
  let all: LoadedScenario[] = [...startup];
  /**
   * The first rule matching a create's input, found once: a create's `api_fault` and its
   * outcome are asked with the same input object, one right after the other. Only the last
   * input is kept (a create asked again after another one was matched is matched again, with
   * the same answer); forgotten when the scenarios change.
   */
  let last: { input: MatchInput; found: RuleMatch | null } | undefined;
  const rebuild = (): void => {
    all = [...runtime, ...startup];
    last = undefined;
  };
  const firstRule = (input: MatchInput): RuleMatch | null => {
    if (last?.input === input) return last.found;
    const found = findRule(all, input);
    last = { input, found };
    return found;
  };
  const ruleByLabel = (label: string | null): ScenarioRule | null => {
    if (label === null) return null;
    for (const scenario of all) {
      for (const rule of scenario.rules) if (`${scenario.name}/${rule.name}` === label) return rule;
    }
    return null;
  };
  return {
    get scenarios() {
      return all;
    },
    describe: () =>
      describeScenarios(all).map((summary, i) => ({
        ...summary,
        origin: i < runtime.length ? ('runtime' as const) : ('startup' as const),
      })),
    ruleByLabel,
    addRuntime(scenario) {
      const clash = startup.find((other) => other.name === scenario.name);
      if (clash)
        throw new ScenarioError(scenario.source, `name: "${scenario.name}" is already the name of ${clash.source}, loaded at start-up`, [
          { path: ['name'], message: 'already the name of a scenario loaded at start-up' },
        ]);
      const before = runtime.length;
      runtime = [scenario, ...runtime.filter((other) => other.name !== scenario.name)];
      rebuild();
      return { replaced: runtime.length === before };
    },
    removeRuntime(name) {
      const before = runtime.length;
      runtime = runtime.filter((other) => other.name !== name);
      rebuild();
      return runtime.length < before;
    },
    clearRuntime() {
      const count = runtime.length;
      runtime = [];
      rebuild();
      return count;
    },
    forTransaction(input) {
      const found = firstRule(input);
      return found ? { rule: ruleLabel(found), script: scriptOf(found.rule.steps) } : null;
    },
    forSubscription(input) {
      // A rule on the customer's e-mail or on the amount decides a subscription whatever card is
      // on file (named or put there by default); other rules are tried in their usual order.
      const onCustomer = all.map((scenario) => ({
        ...scenario,
        rules: scenario.rules.filter(
          (rule) => rule.match.card_number === undefined && (rule.match.customer_email !== undefined || rule.match.amount !== undefined),
        ),
      }));
      const found = findRule(onCustomer, input) ?? firstRule(input);
      return found ? { label: ruleLabel(found), steps: found.rule.steps } : null;
    },
    firstChargeScript: (rule) => scriptOf(stepsOf(rule), 'SUCCEEDED'),
    renewalScript: (rule, renewal, attemptsBefore) => {
      const steps = stepsOf(rule);
      return {
        outcome: renewalOutcome(steps, renewal, attemptsBefore),
        afterSeconds: 0,
        refunds: [],
        webhookFailures: webhookFailuresOf(steps),
      };
    },
    apiFaultFor(input) {
      const found = firstRule(input);
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
