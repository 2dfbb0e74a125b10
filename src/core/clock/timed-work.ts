/**
 * The timed work the scheduler runs (`scheduler.ts`): what each kind of work (webhook retries,
 * renewals, scenario steps) tells it, which of the registered works is due next, about how
 * many steps an advance would run, and the answers of an advance refused (too long, or past the
 * latest time a clock may show) or stopped part-way by its step limit.
 */
import { SandboxError } from '../domain/errors.js';
import { LATEST_CLOCK_TEXT, isoTimestamp } from './clock.js';

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

/**
 * A refusal or a stop of a clock advance: the 400 it answers, with `detail` for the pointer the
 * caller names (`/seconds`, `/months`, a fixture's `then`) and in `extra` how far the clock
 * moved (`moved_seconds`, 0 when nothing moved) and how many steps ran.
 */
export abstract class AdvanceRefusal extends SandboxError {
  abstract readonly detail: string;
}

/** 400: an advance estimated to run more steps than one advance may; refused before anything moved. */
export class AdvanceTooLongError extends AdvanceRefusal {
  readonly detail: string;
  constructor(
    readonly estimatedSteps: number,
    readonly maxSteps: number,
  ) {
    super(
      400,
      'bad_request',
      `This advance would run about ${estimatedSteps} steps (renewals, scheduled steps and webhook retries due in the window); ` +
        `at most ${maxSteps} are allowed in one advance. Nothing moved: advance in shorter pieces.`,
      [],
      { moved_seconds: 0, steps: 0 },
    );
    this.name = 'AdvanceTooLongError';
    this.detail = `would run about ${estimatedSteps} steps; at most ${maxSteps} per advance`;
  }
}

/** 400: an advance whose end would put a clock past `LATEST_CLOCK_MS`; refused before anything moved. */
export class ClockBoundError extends AdvanceRefusal {
  readonly detail: string;
  /** The most whole seconds an advance may still move (0 at the bound). */
  readonly leftSeconds: number;
  constructor(askedMs: number, roomMs: number) {
    const left = Math.max(0, Math.floor(roomMs / 1000));
    super(
      400,
      'bad_request',
      `This advance of ${askedMs / 1000} s would move a clock past ${LATEST_CLOCK_TEXT}, the latest time a clock may show ` +
        `(counting the clock furthest ahead: an account's own offset adds to the sandbox clock's); at most ${left} s are left. Nothing moved.`,
      [],
      { moved_seconds: 0, steps: 0 },
    );
    this.name = 'ClockBoundError';
    this.leftSeconds = left;
    this.detail = `would pass ${LATEST_CLOCK_TEXT}; at most ${left} s are left`;
  }
}

/** Where a stopped advance left the clock. */
export interface AdvanceStop {
  maxSteps: number;
  /** Steps that ran (and stay). */
  steps: number;
  askedMs: number;
  movedMs: number;
  /** The clock's time and offset (from real time) where it stopped. */
  nowMs: number;
  offsetMs: number;
}

/**
 * 400: an advance that reached its step limit part-way (its steps made more work than its
 * estimate saw). What ran stays, and the clock stays at its last step: the answer says how far
 * it moved (`moved_seconds`, `remaining_seconds`), where it is (`now`, `offset_seconds`) and how
 * many steps ran.
 */
export class AdvanceStoppedError extends AdvanceRefusal {
  readonly detail: string;
  constructor(readonly stop: AdvanceStop) {
    const moved = stop.movedMs / 1000;
    const remaining = (stop.askedMs - stop.movedMs) / 1000;
    const now = isoTimestamp(stop.nowMs);
    super(
      400,
      'bad_request',
      `This advance stopped at its limit of ${stop.maxSteps} steps: the clock moved ${moved} s of the ${stop.askedMs / 1000} s asked, ` +
        `to ${now}, and the ${stop.steps} steps that ran are kept. Advance the remaining ${remaining} s in shorter pieces.`,
      [],
      { now, offset_seconds: stop.offsetMs / 1000, moved_seconds: moved, remaining_seconds: remaining, steps: stop.steps },
    );
    this.name = 'AdvanceStoppedError';
    this.detail = `stopped after ${stop.steps} steps, ${moved} s of ${stop.askedMs / 1000} s moved`;
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
