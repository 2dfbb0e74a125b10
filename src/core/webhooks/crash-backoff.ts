/**
 * The back-off after attempts that failed in the sandbox itself (their record cannot be
 * written: a full disk): no attempt starts for a while, doubled at each further failure up to
 * the maximum (real time). It retried at once, in a tight loop: 78% CPU and 431,000 log lines
 * in 5 minutes. When the back-off ends, `onResume` runs (the dispatcher reads everything due).
 *
 * The back-off ends when its timer fires, not when a reading of real time passes its end: a
 * timer counts whole milliseconds and may fire up to one before `performance.now()` reaches its
 * end (3 in 200 timers of 20 ms here), and the resume then still saw the back-off, skipped its
 * full pass, and the deliveries due meanwhile were left behind until the 5 s full pass (passes.ts).
 */

export const CRASH_BACKOFF_FIRST_MS = 250;
export const CRASH_BACKOFF_MAX_MS = 30_000;

/** Real time (not the sandbox clock): a fake in unit tests. */
export interface RealTime {
  /** Monotonic milliseconds (performance.now). */
  now(): number;
  /** Runs `fn` after `ms` without keeping the process alive; returns its cancel. */
  after(ms: number, fn: () => void): () => void;
}

export const realTime: RealTime = {
  now: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface CrashBackoffDeps {
  /** Hears of each failure of the sandbox itself. */
  onError: (err: unknown) => void;
  /** Hears that attempts are recorded again after such failures. */
  onRecovered?: () => void;
  /** The back-off ended: what fell due meanwhile is to be started. */
  onResume: () => void;
  time?: RealTime;
}

export class CrashBackoff {
  /** Failures in a row (reset once an attempt is recorded again). */
  private crashes = 0;
  /** The cancel of the timer that ends the back-off, while backing off. */
  private cancelResume: (() => void) | undefined;
  private readonly time: RealTime;

  constructor(private readonly deps: CrashBackoffDeps) {
    this.time = deps.time ?? realTime;
  }

  /** Backing off: nothing is admitted. */
  get paused(): boolean {
    return this.cancelResume !== undefined;
  }

  /** An attempt failed in the sandbox itself: reported, and no attempt starts for a while (exponential, capped). */
  crashed(err: unknown): void {
    this.crashes += 1;
    this.deps.onError(err);
    const delay = Math.min(CRASH_BACKOFF_MAX_MS, CRASH_BACKOFF_FIRST_MS * 2 ** Math.min(this.crashes - 1, 20));
    this.cancelResume?.();
    this.cancelResume = this.time.after(delay, () => {
      this.cancelResume = undefined;
      this.deps.onResume();
    });
  }

  /** An attempt was recorded: after failures, the sandbox has recovered. */
  recorded(): void {
    if (this.crashes === 0) return;
    this.crashes = 0;
    this.deps.onRecovered?.();
  }

  /** No resume after shutdown. */
  close(): void {
    this.cancelResume?.();
  }
}
