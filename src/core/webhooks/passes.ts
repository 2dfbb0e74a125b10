/**
 * The passes over due deliveries. A pass reads only what fell due since the last one, not the
 * backlog under way; a full pass reads every due delivery (at start, after parked deliveries
 * were released, after the clock went back, after a back-off, after a pass or a follow-up
 * that failed, and at least every `FULL_PASS_EVERY_MS` as a safety net).
 */
import type { DeliveriesRepo, DueDelivery } from '../domain/ports.js';
import { realTime, type RealTime } from './crash-backoff.js';

/** The longest time (real time) between two full passes over the due deliveries. */
export const FULL_PASS_EVERY_MS = 5000;

export interface PassesDeps {
  deliveries: Pick<DeliveriesRepo, 'dueHeadIds' | 'byId' | 'dueBetween' | 'nextDue' | 'pendingAfter'>;
  time?: RealTime;
}

export class Passes {
  /**
   * The sandbox instant of the last pass, or -Infinity when a full pass is needed. Every
   * pending delivery due before it was started then, waits behind an earlier one of its
   * transaction (started when that one ends), or was held to a later instant; one queued
   * since is nudged after its commit. So the scheduler is not told a delivery under way is due.
   */
  private lastPass = -Infinity;
  /** When (real time) the last full pass ran. */
  private fullPassAt = 0;
  private readonly time: RealTime;

  constructor(private readonly deps: PassesDeps) {
    this.time = deps.time ?? realTime;
  }

  /** The next pass reads every due delivery: some fell due behind the last pass, or one may have been skipped. */
  readAll(): void {
    this.lastPass = -Infinity;
  }

  /** Backing off: what is due now waits for the resume (which reads everything); the scheduler is not told it is still due. */
  skip(nowMs: number): void {
    if (nowMs > this.lastPass) this.lastPass = nowMs;
  }

  /**
   * A pass at `nowMs`: `visit` sees each delivery due since the last pass (or each due one)
   * that is not `underWay`. A full pass reads the due ids first and reads no row of one under
   * way, nor of one waiting behind its queue's head: during a long clock advance most of a
   * large backlog is under way or queued, and reading every row of it at once held the event
   * loop for a fifth of a second.
   * If `visit` throws, the deliveries after it were not seen: the next pass reads everything.
   */
  run(nowMs: number, visit: (row: DueDelivery) => void, underWay: (id: string) => boolean = () => false): void {
    const passed = this.passedAt(nowMs);
    if (passed === -Infinity) this.fullPassAt = this.time.now();
    const rows =
      passed === -Infinity
        ? this.dueNotUnderWay(nowMs, underWay)
        : this.deps.deliveries.dueBetween(passed, nowMs).filter((row) => !underWay(row.id));
    this.lastPass = nowMs;
    try {
      for (const row of rows) visit(row);
    } catch (err) {
      this.readAll();
      throw err;
    }
  }

  /** The next instant a delivery falls due that no pass has seen, leaving out those `isQueued` (their nudge starts them). */
  nextDueMs(nowMs: number, isQueued: (id: string) => boolean): number | null {
    const passed = this.passedAt(nowMs);
    if (passed === -Infinity) return this.deps.deliveries.nextDue();
    for (const row of this.deps.deliveries.pendingAfter(passed)) {
      if (!isQueued(row.id)) return row.next_attempt_at;
    }
    return null;
  }

  private *dueNotUnderWay(nowMs: number, underWay: (id: string) => boolean): Iterable<DueDelivery> {
    const { deliveries } = this.deps;
    for (const id of deliveries.dueHeadIds(nowMs)) {
      if (underWay(id)) continue;
      const row = deliveries.byId(id);
      if (row?.status === 'pending') yield row;
    }
  }

  /** The last pass's instant, forgotten when the clock has gone back before it (reset, a failed step), or when a full pass is due. */
  private passedAt(nowMs: number): number {
    if (this.lastPass > nowMs) this.lastPass = -Infinity;
    if (this.time.now() - this.fullPassAt > FULL_PASS_EVERY_MS) this.lastPass = -Infinity;
    return this.lastPass;
  }
}
