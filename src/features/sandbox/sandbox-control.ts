/**
 * The sandbox's own controls (`POST /_sandbox/reset`, `POST /_sandbox/clock/advance`, which the
 * fixtures' `advance:<seconds>` uses too): what they change, in which order, and what they tell the change feed.
 * Each takes only the parts it drives; the feature's `index.ts` hands them in.
 */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { RewindableClock } from '../../core/clock/clock.js';
import type { ChangeFeed, UnitOfWork } from '../../core/domain/ports.js';

export interface SandboxControlDeps {
  /** The timed work (webhook retries, scenario steps, renewals) on the sandbox clock. */
  scheduler: {
    /** Runs all that falls due over `seconds`; with `waitForIo`, each step's I/O is awaited. Resolves with how many steps ran. */
    advance(seconds: number, options: { waitForIo: boolean }): Promise<number>;
    /** The same on one account's own clock, running that account's due work alone. */
    advanceAccount(accountId: string, seconds: number, options: { waitForIo: boolean }): Promise<number>;
    /** Throws ClockBoundError or AdvanceTooLongError when an advance by `seconds` would pass the bound or run too many steps. */
    checkAdvance(seconds: number): void;
    /** How many milliseconds the sandbox clock may still move before a clock (an account's too) passes the bound. */
    roomMs(): number;
    /** Stops an advance under way at its next turn. */
    interrupt(): void;
  };
  clock: Pick<RewindableClock, 'nowMs' | 'offsetMs' | 'rewind' | 'inAccount'>;
  uow: Pick<UnitOfWork, 'run'>;
  /** The stored state: emptied by a reset (accounts kept), and the clock's persisted offset. */
  state: { wipe(): void; saveClockOffset(ms: number): void };
  /** Seeds the generated buyers again after a wipe. */
  buyers: { reseedBuyers(): void };
  /** The go-live report's aggregates, emptied with the data they describe. */
  report: { clear(): void };
  /** The webhook deliveries: nudged to run what is due, and awaited. */
  webhooks: { nudge(): void; idle(): Promise<void> };
  feed: ChangeFeed;
}

/** Reset and the sandbox clock, as the control API, the panel and the fixtures use them. */
export interface SandboxControl {
  /**
   * Empties all data but the accounts (and the scenarios), and seeds the buyers again; with
   * `rewindClock`, the clock also goes back to real time (offset 0, persisted). An advance
   * under way stops first.
   */
  reset(options?: { rewindClock?: boolean }): void;
  /**
   * Moves the sandbox clock forward, running all that falls due; persists the offset. Unless
   * `waitForWebhooks` is false, resolves once the webhooks it queued have had their attempt.
   * Resolves with how many steps ran.
   */
  advanceClock(seconds: number, options?: { waitForWebhooks?: boolean }): Promise<number>;
  /**
   * Moves `accountId`'s own clock forward (every other account's and the sandbox clock stay),
   * running that account's due work alone, in time order; persists its offset. Unless
   * `waitForWebhooks` is false, resolves once the webhooks it queued have had their attempt.
   */
  advanceAccountClock(accountId: string, seconds: number, options?: { waitForWebhooks?: boolean }): Promise<number>;
  /** `accountId`'s clock: its time, and how far it is ahead of real time (the sandbox clock's offset plus its own). */
  accountClock(accountId: string): { nowMs: number; offsetMs: number };
  /** Refuses (throws the 400 ClockBoundError or AdvanceTooLongError) an advance by `seconds` that `advanceClock` would refuse before moving; moves nothing. */
  checkAdvance(seconds: number): void;
  /** How many milliseconds the sandbox clock may still move before a clock (an account's too) passes 9999-12-31T23:59:59Z. */
  clockRoomMs(): number;
}

export function createSandboxControl({ scheduler, clock, uow, state, buyers, report, webhooks, feed }: SandboxControlDeps): SandboxControl {
  return {
    reset({ rewindClock = false } = {}) {
      scheduler.interrupt(); // an advance under way stops: it would move the clock back where it was going
      uow.run(() => {
        state.wipe();
        buyers.reseedBuyers();
        if (rewindClock) {
          clock.rewind();
          state.saveClockOffset(0);
        }
      });
      report.clear();
      feed.emit('sandbox.reset', null, { rewound_clock: rewindClock });
    },
    async advanceClock(seconds, { waitForWebhooks = true } = {}) {
      // Each slice of steps saves the offset with its own work, so the disk never runs ahead or behind.
      const steps = await scheduler.advance(seconds, { waitForIo: waitForWebhooks });
      // The steps do not wait for their webhooks (they go out alongside); the answer does, unless
      // asked not to: a merchant's test checks its handler right after the call.
      if (waitForWebhooks) {
        webhooks.nudge();
        await webhooks.idle();
      }
      feed.emit('clock.advanced', null, { now: isoTimestamp(clock.nowMs()), offset_ms: clock.offsetMs(), steps });
      return steps;
    },
    async advanceAccountClock(accountId, seconds, { waitForWebhooks = true } = {}) {
      const steps = await scheduler.advanceAccount(accountId, seconds, { waitForIo: waitForWebhooks });
      if (waitForWebhooks) {
        clock.inAccount(accountId, () => webhooks.nudge());
        await webhooks.idle();
      }
      const now = this.accountClock(accountId);
      feed.emit('clock.advanced', accountId, { now: isoTimestamp(now.nowMs), offset_ms: now.offsetMs, steps });
      return steps;
    },
    accountClock: (accountId) => clock.inAccount(accountId, () => ({ nowMs: clock.nowMs(), offsetMs: clock.offsetMs() })),
    checkAdvance: (seconds) => scheduler.checkAdvance(seconds),
    clockRoomMs: () => scheduler.roomMs(),
  };
}
