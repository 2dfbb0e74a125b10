/**
 * The scenario engine: runs the loaded scenario rules (contract: Scenarios). On every new
 * transaction it finds the deciding rule (`match.ts`), records it on the transaction
 * (`scenario_rule`) and plays the rule's steps: an outcome with `after_seconds: 0` is applied
 * at once (the create response already shows it), later outcomes and refunds wait in
 * `scheduled_steps` and are applied by this `TimedWork` when the sandbox clock reaches them.
 * `webhook_failures` travel with each outcome and refund as simulated delivery failures.
 *
 * Subscription charges are not matched here: subscription billing (`domain/subscriptions.ts`)
 * matches the subscription once and asks the engine to play the outcome it decides for each
 * charge (`play`), so renewal rules have a single owner.
 */
import type { TimedWork } from '../domain/scheduler.js';
import { SandboxError } from '../domain/errors.js';
import { refundTransaction, resolveTransaction, type NewTransaction } from '../domain/transactions.js';
import type { Sandbox } from '../sandbox.js';
import { STEP_APPLIED, STEP_SKIPPED, type ScheduledStepRow } from '../store/scheduled-steps.js';
import type { TransactionRow } from '../store/transactions.js';
import type { SimulatedFailures } from '../webhooks/outbox.js';
import { DEFAULT_SCENARIO_PATH, loadScenarios, type LoadedScenario } from './load.js';
import { describeScenarios, findRule, type MatchInput, type RuleMatch, type ScenarioSummary } from './match.js';
import type { PaymentOutcome, ScenarioRule, ScenarioStep } from './schema.js';

/** A refund a script asks for, `afterSeconds` after the script's outcome. */
export interface ScriptedRefund {
  amount?: number;
  reason?: string;
  afterSeconds: number;
}

/** What happens to one transaction: the plan a rule (or subscription billing) makes for it. */
export interface ChargeScript {
  /** The terminal status to set, or null to leave the transaction PENDING for a hand. */
  outcome: PaymentOutcome | null;
  /** Sandbox-clock seconds after now; 0 applies the outcome at once. */
  afterSeconds: number;
  refunds: ScriptedRefund[];
  /** Simulated delivery failures of each webhook about the transaction and its refunds. */
  webhookFailures?: SimulatedFailures;
}

interface OutcomePayload {
  outcome: PaymentOutcome;
  webhook_failures?: SimulatedFailures;
}

interface RefundPayload {
  amount?: number;
  reason?: string;
  webhook_failures?: SimulatedFailures;
}

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

/**
 * The script of a rule's steps for one transaction: its outcome step (or `defaultOutcome`
 * at once when it has none), its refunds and its webhook failures. Renewal steps are ignored
 * here; subscription billing reads them.
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

/** What a new transaction is matched on. */
export function transactionMatchInput(input: NewTransaction): MatchInput {
  return {
    kind: 'transaction',
    amount: input.amount,
    currency: input.currency,
    cardNumber: input.payment_method?.number ?? null,
    customerEmail: input.customer?.email ?? null,
    metadata: input.metadata ?? null,
    paymentChannelCode: input.payment_method?.payment_channel_code ?? null,
    plan: null,
  };
}

/**
 * Loads the `--scenario` files, then the default scenario (rules are tried in that order).
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad file.
 */
export function loadConfiguredScenarios(files: readonly string[]): LoadedScenario[] {
  return loadScenarios([...files, DEFAULT_SCENARIO_PATH]);
}

export class ScenarioEngine implements TimedWork {
  readonly name = 'scenario steps';

  constructor(
    private readonly sandbox: Sandbox,
    /** The loaded scenarios, in matching order. */
    readonly scenarios: readonly LoadedScenario[],
  ) {}

  /** The loaded scenarios as `GET /_sandbox/scenarios` shows them. */
  describe(): ScenarioSummary[] {
    return describeScenarios([...this.scenarios]);
  }

  /** The first rule matching `input`, or null. */
  match(input: MatchInput): RuleMatch | null {
    return findRule([...this.scenarios], input);
  }

  /** The loaded rule a `scenario/rule` label names, or null (e.g. a file no longer loaded). */
  ruleByLabel(label: string | null): ScenarioRule | null {
    if (label === null) return null;
    for (const scenario of this.scenarios) {
      for (const rule of scenario.rules) if (`${scenario.name}/${rule.name}` === label) return rule;
    }
    return null;
  }

  /**
   * The simulated webhook failures a transaction's rule asks for: for callers that settle,
   * fail or refund it by hand and want the rule's `webhook_failures` to hold there too.
   */
  simulatedFailuresFor(tx: TransactionRow): SimulatedFailures | undefined {
    const rule = this.ruleByLabel(tx.scenario_rule);
    return rule ? webhookFailuresOf(rule.steps) : undefined;
  }

  /**
   * The `hooks.transactionCreated` hook: matches a new (non-subscription) transaction and
   * plays its rule. Runs inside the creating database transaction.
   */
  readonly onTransactionCreated = (tx: TransactionRow, input: NewTransaction): void => {
    if (tx.subscription_id !== null) return;
    const found = this.match(transactionMatchInput(input));
    if (!found) return;
    this.sandbox.stores.transactions.setScenarioRule(tx.id, ruleLabel(found));
    this.play(tx, scriptOf(found.rule.steps));
  };

  /**
   * Carries out a script for a PENDING transaction: the outcome now (`afterSeconds` 0) or as
   * a scheduled step, and each refund `afterSeconds` after the outcome's instant (at once
   * when both delays are 0).
   */
  play(tx: TransactionRow, script: ChargeScript): void {
    if (script.outcome === null) return;
    const { db, clock, stores } = this.sandbox;
    const now = clock.nowMs();
    const outcomeAt = now + script.afterSeconds * 1000;
    db.transaction(() => {
      const immediate = script.afterSeconds === 0;
      if (immediate) {
        resolveTransaction(this.sandbox, tx.id, script.outcome!, script.webhookFailures);
      } else {
        const payload: OutcomePayload = { outcome: script.outcome!, webhook_failures: script.webhookFailures };
        stores.scheduledSteps.insert({ account_id: tx.account_id, due_at: outcomeAt, kind: 'outcome', resource_id: tx.id, payload: JSON.stringify(payload) });
      }
      for (const refund of script.refunds) {
        const payload: RefundPayload = { amount: refund.amount, reason: refund.reason, webhook_failures: script.webhookFailures };
        if (immediate && refund.afterSeconds === 0) {
          try {
            this.applyRefund(tx.id, payload);
          } catch (err) {
            // A refund the transaction cannot take (e.g. more than its amount) is dropped,
            // never failing the create it belongs to.
            if (!(err instanceof SandboxError)) throw err;
          }
        } else {
          stores.scheduledSteps.insert({
            account_id: tx.account_id,
            due_at: outcomeAt + refund.afterSeconds * 1000,
            kind: 'refund',
            resource_id: tx.id,
            payload: JSON.stringify(payload),
          });
        }
      }
    })();
  }

  nextDueMs(): number | null {
    return this.sandbox.stores.scheduledSteps.nextDue();
  }

  async runDue(nowMs: number, wait: boolean): Promise<void> {
    for (const step of this.sandbox.stores.scheduledSteps.due(nowMs)) this.apply(step);
    // During a clock advance, deliver what the steps queued before the clock moves on.
    if (wait) await this.sandbox.dispatcher.runDue(this.sandbox.clock.nowMs(), true);
  }

  /** Applies one due step; a step whose transaction changed meanwhile is skipped. */
  private apply(step: ScheduledStepRow): void {
    const { db, stores } = this.sandbox;
    try {
      db.transaction(() => {
        if (step.kind === 'outcome') {
          const payload = JSON.parse(step.payload) as OutcomePayload;
          resolveTransaction(this.sandbox, step.resource_id, payload.outcome, payload.webhook_failures);
        } else {
          this.applyRefund(step.resource_id, JSON.parse(step.payload) as RefundPayload);
        }
        stores.scheduledSteps.finish(step.seq, STEP_APPLIED);
      })();
    } catch (err) {
      // E.g. settled by hand before its scripted outcome, or refunded in full already.
      stores.scheduledSteps.finish(step.seq, STEP_SKIPPED);
      if (!(err instanceof SandboxError)) console.error(`[payment-sandbox] scenario step ${step.kind} on ${step.resource_id} failed:`, err);
    }
  }

  private applyRefund(transactionId: string, payload: RefundPayload): void {
    const tx = this.sandbox.stores.transactions.byIdAnyAccount(transactionId);
    if (!tx) throw new SandboxError(404, 'not_found', `Transaction ${transactionId} not found`);
    refundTransaction(this.sandbox, tx, { amount: payload.amount, reason: payload.reason }, payload.webhook_failures);
  }
}

/** Builds the engine, hooks it into transaction creation and registers it on the scheduler. */
export function installScenarioEngine(sandbox: Sandbox, scenarios: readonly LoadedScenario[]): ScenarioEngine {
  const engine = new ScenarioEngine(sandbox, scenarios);
  sandbox.hooks.transactionCreated.push(engine.onTransactionCreated);
  sandbox.scheduler.register(engine);
  return engine;
}
