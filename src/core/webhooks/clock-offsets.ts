/**
 * The sandbox instant each attempt is stamped with. A step of a clock advance queues webhooks
 * that go out after its slice commits, by when the clock has moved on: such a delivery is
 * stamped (and its retry timed) from the clock offset it was queued at, however far the
 * advance has moved while it waited for its commit, its slot, an earlier webhook of its queue
 * (`ordering.ts`) or its answer. One queued in real time is stamped now.
 */
import type { Clock } from '../clock/clock.js';

/** At most this many deliveries' clock offsets are kept until admitted. */
export const MAX_NOTED_OFFSETS = 100_000;

export class ClockOffsets {
  /**
   * The clock offset each delivery due at once was queued at, until the next pass admits it
   * (the nudge after its commit). Until then the scheduler is not told they are due (the
   * nudge starts them; a step would wait for them).
   */
  private readonly queuedAt = new Map<string, number>();
  /**
   * The clock offset of the attempt before a retry that fell due before the clock's now (the
   * advance moved past it while the attempt was under way): the retry goes at once, stamped on
   * that attempt's timeline, so retries inside an advance's window all run in it.
   */
  private readonly overdueAt = new Map<string, number>();
  /**
   * The clock offset a delivery was queued at, kept while it waits behind an earlier webhook of
   * its queue that is under way: a renewal's webhook that goes out once the one before it is
   * answered is stamped with its charge's instant, not with where the advance has got to.
   */
  private readonly waitingAt = new Map<string, number>();

  constructor(private readonly clock: Pick<Clock, 'nowMs' | 'offsetMs'>) {}

  /** A delivery queued with its first attempt at `nextAttemptAt`: one due at once keeps the offset now. */
  queued(id: string, nextAttemptAt: number | null): void {
    if (nextAttemptAt === null || nextAttemptAt > this.clock.nowMs()) return;
    // Entries of work rolled back are dropped by the next pass; the map stays bounded all the same.
    if (this.queuedAt.size >= MAX_NOTED_OFFSETS) this.queuedAt.clear();
    this.queuedAt.set(id, this.clock.offsetMs());
  }

  /** Queued, due at once, and not yet seen by a pass. */
  isQueued(id: string): boolean {
    return this.queuedAt.has(id);
  }

  /** A pass saw a delivery queued but could not start it (an earlier one of its queue is under way): it keeps its offset. */
  waiting(id: string): void {
    const offset = this.queuedAt.get(id);
    if (offset === undefined) return;
    if (this.waitingAt.size >= MAX_NOTED_OFFSETS) this.waitingAt.clear();
    this.waitingAt.set(id, offset);
  }

  /** A pass has seen every delivery queued before it. */
  passed(): void {
    this.queuedAt.clear();
  }

  /** A retry that fell due before the clock's now goes on the timeline of the attempt before it. */
  overdue(id: string, admittedOffset: number): void {
    if (this.overdueAt.size >= MAX_NOTED_OFFSETS) this.overdueAt.clear();
    this.overdueAt.set(id, admittedOffset);
  }

  /** The offset a delivery being admitted is timed from (forgotten here): queued at (or waiting since), overdue at, or now. */
  admit(id: string): number {
    const offset = this.queuedAt.get(id) ?? this.waitingAt.get(id) ?? this.overdueAt.get(id) ?? this.clock.offsetMs();
    this.queuedAt.delete(id);
    this.waitingAt.delete(id);
    this.overdueAt.delete(id);
    return offset;
  }

  /** The sandbox time of an attempt admitted at `admittedOffset`: the clock now, less any advance since. */
  instant(admittedOffset: number): number {
    return this.clock.nowMs() - Math.max(0, this.clock.offsetMs() - admittedOffset);
  }
}
