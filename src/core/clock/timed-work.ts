/**
 * The timed work the scheduler runs (`scheduler.ts`): what each kind of work (webhook retries,
 * renewals, scenario steps) tells it, which of the registered works is due next, about how
 * many steps an advance would run, and the limit that refuses an advance too long.
 */
import { SandboxError } from '../domain/errors.js';

/** The most steps one advance may run (README "The sandbox clock"); longer advances are refused. */
export const MAX_ADVANCE_STEPS = 100_000;

export interface TimedWork {
  name: string;
  /** Earliest instant (epoch ms, sandbox clock) at which something is due, or null. */
  nextDueMs(): number | null;
  /**
   * About how many steps this work would run up to `untilMs`, estimated from what is due now
   * (renewal periods in the window, scheduled steps, retries). Without it: 1 if due, else 0.
   */
  countDue?(untilMs: number): number;
  /**
   * Runs everything due at or before `nowMs`. Its synchronous part runs inside the caller's
   * unit of work (a throw rolls it back); a returned promise is I/O it started (awaited, when
   * `wait` is true, before the clock moves on; it is not part of the step's unit of work).
   */
  runDue(nowMs: number, wait: boolean): Promise<void> | void;
  /** Resolves once I/O this work started outside `advance` (e.g. a webhook sent on settle) is done. */
  idle?(): Promise<void>;
}

/** 400: an advance that would run more steps than `MAX_ADVANCE_STEPS`; nothing moved. */
export class AdvanceTooLongError extends SandboxError {
  constructor(
    readonly estimatedSteps: number,
    readonly maxSteps: number,
  ) {
    super(
      400,
      'bad_request',
      `This advance would run about ${estimatedSteps} steps (renewals, scheduled steps and webhook retries due in the window); ` +
        `at most ${maxSteps} are allowed in one advance. Nothing moved: advance in shorter pieces.`,
    );
    this.name = 'AdvanceTooLongError';
  }
}

/** About how many steps an advance to `targetMs` would run (the sum of each work's estimate). */
export function estimateStepsOf(works: readonly TimedWork[], targetMs: number): number {
  let total = 0;
  for (const work of works) {
    if (work.countDue) total += work.countDue(targetMs);
    else {
      const due = work.nextDueMs();
      if (due !== null && due <= targetMs) total += 1;
    }
  }
  return total;
}

/** The earliest work due at or before `target`, with its instant, or null. */
export function nextStep(works: readonly TimedWork[], target: number): { work: TimedWork; due: number } | null {
  let next: { work: TimedWork; due: number } | null = null;
  for (const work of works) {
    const due = work.nextDueMs();
    if (due !== null && due <= target && (next === null || due < next.due)) next = { work, due };
  }
  return next;
}
