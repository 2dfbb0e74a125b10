/**
 * Plays the scenario steps that wait for the sandbox clock: a `TimedWork` that applies each
 * due step (a scripted outcome or refund) through the transaction service when the clock
 * reaches it. A step whose transaction changed meanwhile (settled by hand, refunded in full)
 * is skipped.
 */
import type { ChargeOutcome, ScheduledStep, ScheduledStepsRepo } from './vocabulary.js';
import type { SimulatedFailures } from '../../core/domain/entities.js';
import { SandboxError } from '../../core/domain/errors.js';
import type { UnitOfWork } from '../../core/domain/ports.js';
import type { TimedWork } from '../../core/clock/timed-work.js';

/** At most this many scheduled steps are applied in one step of an advance (or tick). */
export const STEP_BATCH = 25;

/** What a step acts through: the transaction service, handed in by the feature that owns it. */
export interface ScenarioStepTarget {
  resolve(id: string, outcome: ChargeOutcome, simulated?: SimulatedFailures): unknown;
  refund(transactionId: string, input: { amount?: number; reason?: string }, simulated?: SimulatedFailures): unknown;
}

export interface ScenarioRunnerDeps {
  uow: UnitOfWork;
  scheduledSteps: ScheduledStepsRepo;
  transactions: ScenarioStepTarget;
  /** Hears of a step that failed for a reason other than the transaction's state. */
  onStepError: (step: ScheduledStep, err: unknown) => void;
  /** Runs a step on its account's clock (`Clock.inAccount`); default: as it is. */
  inAccount?: <T>(accountId: string, work: () => T) => T;
}

export function createScenarioRunner(deps: ScenarioRunnerDeps): TimedWork {
  const { uow, scheduledSteps, transactions } = deps;

  const apply = (step: ScheduledStep): void => {
    try {
      uow.run(() => {
        const { action } = step;
        if (action.kind === 'outcome') transactions.resolve(step.resource_id, action.outcome, action.webhook_failures);
        else transactions.refund(step.resource_id, { amount: action.amount, reason: action.reason }, action.webhook_failures);
        scheduledSteps.finish(step.seq, 'applied');
      });
    } catch (err) {
      // E.g. settled by hand before its scripted outcome, or refunded in full already.
      scheduledSteps.finish(step.seq, 'skipped');
      if (!(err instanceof SandboxError)) deps.onStepError(step, err);
    }
  };

  return {
    name: 'scenario steps',
    nextDueMs: () => scheduledSteps.nextDue(),
    countDue: (untilMs) => scheduledSteps.due(untilMs).length,
    runDue(nowMs) {
      // A bounded batch per step (the rest stay due at the same instant, the next step's): a
      // thousand steps due at once froze the event loop for the whole batch.
      const inAccount = deps.inAccount ?? (<T>(_accountId: string, work: () => T): T => work());
      for (const step of scheduledSteps.due(nowMs).slice(0, STEP_BATCH)) inAccount(step.account_id, () => apply(step));
    },
  };
}
