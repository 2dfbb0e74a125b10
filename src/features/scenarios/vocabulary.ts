/**
 * The scenario rules' vocabulary, as the features that ask them use it: what a rule is matched
 * on, the script it makes for a charge, the policy that decides, and the steps it schedules on
 * the sandbox clock (the `scheduled_steps` table, played by the scenario runner).
 */
import type { DeliveryFault, SimulatedFailures } from '../../core/domain/entities.js';

/** One webhook fault of a scenario rule (`webhook_fault`; `seconds` for `delayed`): how the outbox queues the rule's webhooks. */
export interface WebhookFault {
  kind: DeliveryFault;
  seconds?: number;
}

/** The outcomes a script can set: a charge's terminal statuses. */
export type ChargeOutcome = 'SUCCEEDED' | 'FAILED';

/** A plan's billing intervals (the request schemas, the scenario format and the billing schedule use this list). */
export const PLAN_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/**
 * The rule a scenario matched for a subscription at creation, kept with it so renewals are
 * decided by the rule as it was: its label and its steps, opaque to the domain (the
 * scenario policy reads them).
 */
export interface RuleSnapshot {
  label: string;
  steps: readonly unknown[];
}

/** What a scenario rule can be matched on, taken from a create request. */
export interface MatchInput {
  kind: 'transaction' | 'subscription';
  /** In minor units. */
  amount: number;
  currency: string;
  /** Spaces and dashes are ignored. */
  cardNumber?: string | null;
  customerEmail?: string | null;
  metadata?: Record<string, string> | null;
  paymentChannelCode?: string | null;
  plan?: { name?: string; interval?: string } | null;
}

/** A refund a script asks for, `afterSeconds` after the script's outcome. */
export interface ScriptedRefund {
  amount?: number;
  reason?: string;
  afterSeconds: number;
}

/** What happens to one transaction: the plan a rule (or subscription billing) makes for it. */
export interface ChargeScript {
  /** The terminal status to set, or null to leave the transaction PENDING for a hand. */
  outcome: ChargeOutcome | null;
  /** Sandbox-clock seconds after now; 0 applies the outcome at once. */
  afterSeconds: number;
  refunds: ScriptedRefund[];
  /** Simulated delivery failures of each webhook about the transaction and its refunds. */
  webhookFailures?: SimulatedFailures;
}

/**
 * The scenario rules as the domain asks them: pure decisions, no clock and no storage.
 * The steps they schedule are stored by the domain and played by the scenario runner.
 */
export interface ScenarioPolicy {
  /** The rule deciding a new (non-subscription) transaction and its script, or null. */
  forTransaction(input: MatchInput): { rule: string; script: ChargeScript } | null;
  /** The rule matched for a new subscription, kept with it for its renewals, or null. */
  forSubscription(input: MatchInput): RuleSnapshot | null;
  /** The script of a subscription's first charge (SUCCEEDED at once unless the rule says otherwise). */
  firstChargeScript(rule: RuleSnapshot | null): ChargeScript;
  /** The script of renewal `renewal` (1 = the first renewal), `attemptsBefore` renewal attempts into the subscription. */
  renewalScript(rule: RuleSnapshot | null, renewal: number, attemptsBefore: number): ChargeScript;
  /** The simulated webhook failures of the rule `label` names, for outcomes and refunds set by hand. */
  simulatedFailures(label: string | null): SimulatedFailures | undefined;
}

/** A scenario step waiting for its instant on the sandbox clock. */
export type ScheduledAction =
  | { kind: 'outcome'; outcome: ChargeOutcome; webhook_failures?: SimulatedFailures }
  | { kind: 'refund'; amount?: number; reason?: string; webhook_failures?: SimulatedFailures };

export interface ScheduledStep {
  seq: number;
  account_id: string;
  due_at: number;
  /** The transaction the step acts on. */
  resource_id: string;
  action: ScheduledAction;
}

export type StepResult = 'applied' | 'skipped';

/** The `scheduled_steps` table. */
export interface ScheduledStepsRepo {
  insert(step: Omit<ScheduledStep, 'seq'>): void;
  /** Waiting steps due at or before `nowMs`, in time order (ties: insertion order). */
  due(nowMs: number): ScheduledStep[];
  /** The earliest `due_at` of a waiting step. */
  nextDue(): number | null;
  finish(seq: number, result: StepResult): void;
  forResource(resourceId: string): (ScheduledStep & { done: StepResult | 'waiting' })[];
}

/** The read half of the scheduled steps (the payment page shows what is scheduled). */
export type ScheduledStepQueries = Pick<ScheduledStepsRepo, 'forResource'>;
