/**
 * Full garbage collections once traffic has stopped, so that a sandbox left running after a
 * test run gives its memory back.
 *
 * Under load, what a request allocates dies young: V8 collects it in the young generation and
 * grows that generation (up to two 16 MiB halves) for the throughput. Nothing then triggers a full
 * collection, and after the load the heap kept its load size however long the sandbox sat idle.
 * V8 shrinks the young generation at a full collection only when little was allocated since the
 * collection before it, over at least its 5 s window: the first full collection after a load
 * still counts the load. So, once the event loop has been quiet for `quietIntervals` samples in
 * a row after at least `busyMs` of work, one full collection runs, and a second one
 * `secondAfterIntervals` samples later (if traffic has not come back), which gives the memory back.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleCollectionOptions {
  /** How often the event loop's use is sampled (ms). */
  intervalMs: number;
  /** Quiet samples in a row before the first collection. */
  quietIntervals: number;
  /** Quiet samples from the first collection to the second: longer than V8's 5 s window. */
  secondAfterIntervals: number;
  /** The share of a sample the loop may be busy and still count as quiet (timers, a polling panel). */
  quietUtilization: number;
  /** Work (ms of busy event loop) since the last collection that makes one worth running. */
  busyMs: number;
  /** The full collection (default: V8's own, see `fullCollection`). */
  collect: () => void;
}

export const IDLE_COLLECTION_DEFAULTS: Omit<IdleCollectionOptions, 'collect'> = {
  intervalMs: 1000,
  quietIntervals: 3,
  secondAfterIntervals: 6,
  quietUtilization: 0.05,
  busyMs: 1000,
};

/** Where the watch stands: quiet samples in a row, busy time since the last collection, quiet samples left until the second one (0: none due). */
export interface IdleState {
  quiet: number;
  busyMs: number;
  second: number;
}

export const IDLE_START: IdleState = { quiet: 0, busyMs: 0, second: 0 };

/** One sample of the event loop: its share busy, and the busy time (ms). */
export interface LoopSample {
  utilization: number;
  activeMs: number;
}

/** The next state after `sample`, and whether a full collection runs now. */
export function idleStep(
  state: IdleState,
  sample: LoopSample,
  options: Pick<IdleCollectionOptions, 'quietIntervals' | 'secondAfterIntervals' | 'quietUtilization' | 'busyMs'>,
): { state: IdleState; collect: boolean } {
  // Traffic: the quiet count starts again, and a second collection still due is dropped.
  if (sample.utilization > options.quietUtilization)
    return { state: { quiet: 0, busyMs: state.busyMs + sample.activeMs, second: 0 }, collect: false };
  const quiet = state.quiet + 1;
  if (state.second > 0) return { state: { quiet, busyMs: state.busyMs, second: state.second - 1 }, collect: state.second === 1 };
  if (quiet >= options.quietIntervals && state.busyMs >= options.busyMs)
    return { state: { quiet, busyMs: 0, second: options.secondAfterIntervals }, collect: true };
  return { state: { quiet, busyMs: state.busyMs, second: 0 }, collect: false };
}

/**
 * V8's full collection, without starting Node with `--expose-gc`: the flag is set only while a
 * new context is made, whose `gc` is kept, so the sandbox's own global gains nothing.
 */
export function fullCollection(): () => void {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as () => void;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Samples the event loop every `intervalMs` (a timer that holds no process open); returns the stop. */
export function collectWhenIdle(overrides: Partial<IdleCollectionOptions> = {}): () => void {
  const options: IdleCollectionOptions = { ...IDLE_COLLECTION_DEFAULTS, collect: overrides.collect ?? fullCollection(), ...overrides };
  let state = IDLE_START;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const sample = performance.eventLoopUtilization(now, last);
    last = now;
    const step = idleStep(state, { utilization: sample.utilization, activeMs: sample.active }, options);
    state = step.state;
    if (step.collect) options.collect();
  }, options.intervalMs).unref();
  return () => clearInterval(timer);
}
