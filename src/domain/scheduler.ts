/**
 * Runs time-based work on the sandbox clock. Each kind of work (webhook retries, renewals,
 * scenario steps) registers a `TimedWork`; `advance` moves the clock to each due instant in
 * time order and runs what falls due there, and `tick` (called by a real-time timer) runs
 * whatever is due now.
 */
import type { Clock } from './clock.js';

export interface TimedWork {
  name: string;
  /** Earliest instant (epoch ms, sandbox clock) at which something is due, or null. */
  nextDueMs(): number | null;
  /** Runs everything due at or before `nowMs`. When `wait` is false it may leave I/O running. */
  runDue(nowMs: number, wait: boolean): Promise<void>;
  /** Resolves once I/O this work started outside `advance` (e.g. a webhook sent on settle) is done. */
  idle?(): Promise<void>;
}

export class Scheduler {
  private readonly works: TimedWork[] = [];
  private advancing: Promise<unknown> = Promise.resolve();
  private busy = false;

  constructor(
    private readonly clock: Clock,
    /** Hears of timed work that failed outside `advance` (the real-time ticker). */
    private readonly onError: (work: string, err: unknown) => void,
  ) {}

  register(work: TimedWork): void {
    this.works.push(work);
  }

  /** Runs what is due now without waiting for network I/O (the real-time ticker). */
  tick(): void {
    if (this.busy) return;
    const now = this.clock.nowMs();
    for (const work of this.works) {
      const due = work.nextDueMs();
      if (due !== null && due <= now) {
        work.runDue(now, false).catch((err: unknown) => this.onError(work.name, err));
      }
    }
  }

  /**
   * Moves the clock forward by `seconds`, running every due item in time order (each with
   * its I/O finished before the next), and returns how many steps ran. Calls are serialised.
   */
  advance(seconds: number): Promise<number> {
    const run = this.advancing.then(() => this.advanceNow(seconds));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  private async advanceNow(seconds: number): Promise<number> {
    this.busy = true;
    try {
      const target = this.clock.nowMs() + Math.round(seconds * 1000);
      let steps = 0;
      for (;;) {
        // Work already under way (a delivery started by a request) finishes before time moves.
        await Promise.all(this.works.map((w) => w.idle?.()));
        let next: { work: TimedWork; due: number } | null = null;
        for (const work of this.works) {
          const due = work.nextDueMs();
          if (due !== null && due <= target && (next === null || due < next.due)) next = { work, due };
        }
        if (next === null) break;
        this.clock.moveTo(next.due);
        await next.work.runDue(this.clock.nowMs(), true);
        steps += 1;
        if (steps > 100_000) throw new Error('clock advance ran more than 100000 steps');
      }
      this.clock.moveTo(target);
      return steps;
    } finally {
      this.busy = false;
    }
  }
}
