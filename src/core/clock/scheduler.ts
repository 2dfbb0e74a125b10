/**
 * Runs time-based work on the sandbox clock. Each kind of work (webhook retries, renewals,
 * scenario steps) registers a `TimedWork`; `advance` moves the clock to each due instant in
 * time order and runs what falls due there, and `tick` (called by a real-time timer) runs
 * whatever is due now.
 *
 * An advance does not wait for the I/O its steps start as a side effect (the webhooks a
 * renewal queues go out after the step's commit while the clock moves on); by default it waits
 * only for work under way when it begins, and for the I/O of a step that is itself that I/O (a
 * webhook retry falling due in the window), so retries still run in time order. Asked not to
 * wait for I/O (`waitForIo: false`), it waits for neither: such I/O ends while the clock moves
 * on, and its work stamps and times what follows on its own timeline.
 *
 * An advance never freezes the server: it yields to the event loop between steps (at most
 * every `YIELD_EVERY_MS` of work), so other requests are answered while it runs. It is
 * bounded: an advance that would move a clock past `LATEST_CLOCK_MS`, or whose estimated steps
 * exceed `MAX_ADVANCE_STEPS`, is refused before the clock moves; one whose steps made more work
 * than its estimate saw stops at the limit and says how far it moved (`AdvanceStoppedError`).
 * And it is atomic on disk: the steps of one slice of work (up to
 * `YIELD_EVERY_MS`) and the clock offset of the last of them commit in one unit of work, each
 * step in its own savepoint, so a failure (or a crash) mid-advance leaves the clock at the last
 * step that committed, with exactly the data of the steps up to it.
 */
import { LATEST_CLOCK_MS, type Clock } from './clock.js';
import { SandboxError } from '../domain/errors.js';
import type { UnitOfWork } from '../domain/ports.js';
import {
  AdvanceStoppedError,
  AdvanceTooLongError,
  ClockBoundError,
  MAX_ADVANCE_STEPS,
  estimateStepsOf,
  nextStep,
  type TimedWork,
} from './timed-work.js';

/** An advance gives the event loop a turn after at most this much work. */
export const YIELD_EVERY_MS = 10;

export interface SchedulerDeps {
  clock: Clock;
  uow: UnitOfWork;
  /** Persists the clock offset (called inside the unit of work of each slice of steps). */
  saveOffset(offsetMs: number): void;
  /** Hears of timed work that failed (the real-time ticker, or a step of an advance). */
  onError(work: string, err: unknown): void;
  /** Overrides `MAX_ADVANCE_STEPS` (tests). */
  maxSteps?: number;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Scheduler {
  private readonly works: TimedWork[] = [];
  private readonly upkeep: TimedWork[] = [];
  private advancing: Promise<unknown> = Promise.resolve();
  /** Bumped by `interrupt()`: an advance under way stops at its next turn, its clock left as set. */
  private generation = 0;
  private busy = false;
  private readonly maxSteps: number;

  constructor(private readonly deps: SchedulerDeps) {
    this.maxSteps = deps.maxSteps ?? MAX_ADVANCE_STEPS;
  }

  register(work: TimedWork): void {
    this.works.push(work);
  }

  /**
   * Registers upkeep: timed work the real-time ticker runs when due (e.g. deleting expired
   * idempotency keys), never a step of an advance, so an advance's steps and its limit count
   * only what a merchant sees happen. After an advance, the next tick runs what fell due.
   */
  registerUpkeep(work: TimedWork): void {
    this.upkeep.push(work);
  }

  /** Runs what is due now without waiting for network I/O (the real-time ticker). */
  tick(): void {
    if (this.busy) return;
    const now = this.deps.clock.nowMs();
    for (const work of [...this.works, ...this.upkeep]) {
      const due = work.nextDueMs();
      if (due === null || due > now) continue;
      try {
        let io: Promise<void> | void = undefined;
        this.deps.uow.run(() => {
          io = work.runDue(now, false);
        });
        (io as Promise<void> | void)?.catch((err: unknown) => this.deps.onError(work.name, err));
      } catch (err) {
        this.deps.onError(work.name, err);
      }
    }
  }

  /**
   * Moves the clock forward by `seconds`, running every due item in time order (by default a
   * step's own I/O finished before the next; with `waitForIo: false` no I/O is waited for), and
   * returns how many steps ran. Calls are serialised.
   * @throws ClockBoundError (400) before anything moves when a clock (an account's too) would pass the bound.
   * @throws AdvanceTooLongError (400) before anything moves when the estimate exceeds the limit.
   * @throws AdvanceStoppedError (400) when the steps reach the limit part-way: the clock stays at the last step.
   * @throws SandboxError (500) when a step fails: the clock stays at the last committed step.
   */
  advance(seconds: number, { waitForIo = true }: { waitForIo?: boolean } = {}): Promise<number> {
    const run = this.advancing.then(() => this.advanceNow(seconds, waitForIo));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  /**
   * Moves `accountId`'s own clock forward by `seconds` (the sandbox clock and every other
   * account's stay), running only that account's due work, in time order, as `advance` does.
   * Serialised with every other advance. Returns how many steps ran.
   * @throws ClockBoundError, AdvanceTooLongError, AdvanceStoppedError as `advance`.
   */
  advanceAccount(accountId: string, seconds: number, { waitForIo = true }: { waitForIo?: boolean } = {}): Promise<number> {
    const run = this.advancing.then(() => this.deps.clock.movingAccount(accountId, () => this.advanceNow(seconds, waitForIo)));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  /**
   * Refuses an advance by `seconds` from now that would pass the bound or whose estimated steps
   * exceed the limit, as `advance` would before moving (so a caller can refuse it inside its own
   * unit of work).
   * @throws ClockBoundError or AdvanceTooLongError (400).
   */
  checkAdvance(seconds: number): void {
    const ms = Math.round(seconds * 1000);
    this.checkBound(ms);
    const estimate = this.estimateSteps(this.deps.clock.nowMs() + ms);
    if (estimate > this.maxSteps) throw new AdvanceTooLongError(estimate, this.maxSteps);
  }

  /**
   * How many milliseconds an advance here may still move before a clock passes
   * `LATEST_CLOCK_MS`: inside an account, its clock's; outside, the clock furthest ahead (a
   * global advance moves every account's clock).
   */
  roomMs(): number {
    return LATEST_CLOCK_MS - this.deps.clock.latestMs();
  }

  /** @throws ClockBoundError when an advance by `ms` would move a clock past the bound. */
  private checkBound(ms: number): void {
    const room = this.roomMs();
    if (!(ms <= room)) throw new ClockBoundError(ms, room);
  }

  /**
   * Stops an advance under way at its next turn of the event loop, without setting the clock
   * to its end: a reset that rewinds the clock mid-advance was undone by the advance's end.
   */
  interrupt(): void {
    this.generation += 1;
  }

  /** About how many steps an advance to `targetMs` would run (the sum of each work's estimate). */
  estimateSteps(targetMs: number): number {
    return estimateStepsOf(this.works, targetMs);
  }

  private async advanceNow(seconds: number, waitForIo: boolean): Promise<number> {
    const { clock } = this.deps;
    // Work already under way (a delivery started by a request) finishes before time moves, unless not waited for.
    if (waitForIo) await Promise.all(this.works.map((w) => w.idle?.()));
    // Advances run one after another: each starts on a turn of its own, so advances queued
    // together (a hundred accounts' own) never run back to back in one turn of the event loop.
    await yieldToEventLoop();
    const generation = this.generation;
    const ms = Math.round(seconds * 1000);
    this.checkBound(ms);
    const startOffset = clock.offsetMs();
    const target = clock.nowMs() + ms;
    const estimate = this.estimateSteps(target);
    if (estimate > this.maxSteps) throw new AdvanceTooLongError(estimate, this.maxSteps);
    this.busy = true;
    try {
      let steps = 0;
      for (;;) {
        const slice = this.slice(target, steps, waitForIo);
        steps = slice.steps;
        if (slice.failure) throw slice.failure;
        if (slice.stopped) {
          const offsetMs = clock.offsetMs();
          const stop = { maxSteps: this.maxSteps, steps, askedMs: ms, movedMs: offsetMs - startOffset, nowMs: clock.nowMs(), offsetMs };
          throw new AdvanceStoppedError(stop);
        }
        if (slice.io) await slice.io;
        if (this.generation !== generation) return steps; // interrupted (a reset): the clock stays as it left it
        if (slice.done) break;
        await yieldToEventLoop();
        if (this.generation !== generation) return steps;
      }
      // The clock ends exactly `seconds` further ahead of real time than it was, however long the steps took.
      this.settleOffset(startOffset + ms);
      return steps;
    } finally {
      this.busy = false;
    }
  }

  /**
   * One slice of an advance: steps in time order, each in its own savepoint (the clock moved
   * to its instant and its work run), for up to `YIELD_EVERY_MS` of work or until a step
   * returns I/O to wait for, then the clock offset saved, all in one unit of work. A step that
   * throws rolls back alone: the slice commits the steps before it, with the offset of the
   * last of them, and reports the failure. What the steps queued (webhooks, events) goes out
   * after the slice's commit.
   */
  private slice(
    target: number,
    stepsBefore: number,
    waitForIo: boolean,
  ): { steps: number; done: boolean; stopped: boolean; io?: Promise<void>; failure?: Error } {
    const { clock, uow } = this.deps;
    const started = performance.now();
    const before = clock.offsetMs();
    let steps = stepsBefore;
    let done = false;
    let stopped = false;
    // better-sqlite3 refuses a transaction function that returns a promise: keep it aside.
    let io: Promise<void> | undefined;
    let failure: Error | undefined;
    try {
      uow.run(() => {
        for (;;) {
          const next = nextStep(this.works, target);
          if (next === null) {
            done = true;
            break;
          }
          if (steps >= this.maxSteps) {
            stopped = true; // the steps made more work than the estimate saw: the clock stays here
            break;
          }
          const stepBefore = clock.offsetMs();
          let stepIo: Promise<void> | void = undefined;
          try {
            uow.run(() => {
              clock.moveTo(next.due);
              stepIo = next.work.runDue(clock.nowMs(), waitForIo);
            });
          } catch (err) {
            clock.restoreOffset(stepBefore);
            failure = this.stepFailed(next.work, next.due, err);
            break;
          }
          steps += 1;
          const pending = stepIo as Promise<void> | undefined;
          if (pending) {
            io = pending;
            break;
          }
          if (performance.now() - started >= YIELD_EVERY_MS) break;
        }
        this.deps.saveOffset(clock.offsetMs());
      });
    } catch (err) {
      // The slice's commit failed: nothing of it is on disk.
      clock.restoreOffset(before);
      throw err;
    }
    return { steps, done, stopped, io, failure };
  }

  /** A step that threw (rolled back alone): logged, and the 500 the advance answers. */
  private stepFailed(work: TimedWork, due: number, err: unknown): SandboxError {
    const { clock } = this.deps;
    this.deps.onError(work.name, err);
    const at = new Date(clock.nowMs()).toISOString();
    return new SandboxError(
      500,
      'server_error',
      `The clock advance stopped: ${work.name} failed at its step due ${new Date(due).toISOString()} (logged). ` +
        `The clock stays at ${at} with everything before that step kept.`,
    );
  }

  /** Sets the clock's offset to `offsetMs` (never back) and saves it, in one unit of work. */
  private settleOffset(offsetMs: number): void {
    const { clock, uow } = this.deps;
    const before = clock.offsetMs();
    try {
      uow.run(() => {
        if (offsetMs > before) clock.restoreOffset(offsetMs);
        this.deps.saveOffset(clock.offsetMs());
      });
    } catch (err) {
      clock.restoreOffset(before);
      throw err;
    }
  }
}
