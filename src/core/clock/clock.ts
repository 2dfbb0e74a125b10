/**
 * The sandbox clock: real time plus an offset that `POST /_sandbox/clock/advance` moves
 * forward. Everything time-based (idempotency expiry, webhook retries, trials, renewals,
 * scenario delays, JWT expiry) reads this one clock. Each account also has its own offset on
 * top of it (`account-clocks.ts`): inside `inAccount(id, …)` every read and move of the clock
 * is that account's clock.
 */
import { createAccountClocks, type AccountClocks } from './account-clocks.js';

/** The latest time any clock may show, 9999-12-31T23:59:59Z: the last second with a four-digit year. */
export const LATEST_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
/** `LATEST_CLOCK_MS` as the messages write it. */
export const LATEST_CLOCK_TEXT = '9999-12-31T23:59:59Z';

export interface Clock {
  /** Current sandbox time in epoch milliseconds. */
  nowMs(): number;
  /**
   * The latest time a clock an advance here moves shows now: inside an account, that account's;
   * outside, the latest of the sandbox clock and every account's (a global advance moves them all).
   */
  latestMs(): number;
  /** Current sandbox time. */
  now(): Date;
  /** How far the sandbox clock is ahead of real time, in milliseconds. */
  offsetMs(): number;
  /** Moves the clock forward so that `nowMs()` is at least `targetMs`; never goes back. */
  moveTo(targetMs: number): void;
  /** Sets the offset: back to a value read earlier (a clock advance's step that rolled back), or to exactly where an advance ends. */
  restoreOffset(offsetMs: number): void;
  /** The account whose clock this is now (inside `inAccount`), or null: the sandbox clock. */
  account(): string | null;
  /** Runs `work` on `accountId`'s clock: reads inside it are that account's. */
  inAccount<T>(accountId: string, work: () => T): T;
  /** Runs `work` on `accountId`'s clock to move it (that account's own advance): moves inside it are that account's. */
  movingAccount<T>(accountId: string, work: () => T): T;
  /** Runs `work` on the sandbox clock, outside any account's. */
  onSandboxClock<T>(work: () => T): T;
}

/** The clock the composition root owns: it alone may send it back to real time (a reset). */
export interface RewindableClock extends Clock {
  /** Drops the offset: the clock shows real time again. */
  rewind(): void;
}

/**
 * A clock that follows real time (`realNow`, replaceable in tests) plus an offset, and inside
 * an account plus that account's own offset (`accounts`), never past `LATEST_CLOCK_MS`. Inside an account, `offsetMs` is the
 * sum and `moveTo`/`restoreOffset` move that account's own offset alone; `rewind` drops both.
 */
export function createClock(
  initialOffsetMs = 0,
  realNow: () => number = Date.now,
  accounts: AccountClocks = createAccountClocks(),
): RewindableClock {
  let offset = initialOffsetMs;
  const own = (): number => {
    const id = accounts.scope();
    return id === null ? 0 : accounts.offsetOf(id);
  };
  // Real time keeps moving after an advance that ended just short of the bound: the clock stops there.
  const nowMs = (): number => Math.min(realNow() + offset + own(), LATEST_CLOCK_MS);
  const latestMs = (): number => (accounts.scope() === null ? Math.min(realNow() + offset + accounts.largest(), LATEST_CLOCK_MS) : nowMs());
  const setTotal = (total: number): void => {
    const id = accounts.scope();
    if (id === null) offset = total;
    else accounts.setOffset(id, total - offset);
  };
  return {
    nowMs,
    latestMs,
    now: () => new Date(nowMs()),
    offsetMs: () => offset + own(),
    moveTo(targetMs) {
      const current = nowMs();
      if (targetMs > current) setTotal(offset + own() + (targetMs - current));
    },
    restoreOffset(offsetMs) {
      setTotal(offsetMs);
    },
    account: () => accounts.scope(),
    inAccount: (accountId, work) => accounts.run(accountId, work),
    movingAccount: (accountId, work) => accounts.own(accountId, work),
    onSandboxClock: (work) => accounts.outside(work),
    rewind() {
      offset = 0;
      accounts.clear();
    },
  };
}

/**
 * What is wrong with stored clock offsets (the sandbox clock's, and each account's own on top
 * of it) at real time `realNowMs`: one phrase naming the clock that would show a time past
 * `LATEST_CLOCK_MS` (or an offset that is not a number), or null when every clock is within it.
 */
export function storedClockPastBound(
  stored: { offsetMs: number; accountOffsets: Record<string, number> },
  realNowMs: number,
): string | null {
  const past = (offsetMs: number): boolean => !(realNowMs + offsetMs <= LATEST_CLOCK_MS);
  const bound = `past ${LATEST_CLOCK_TEXT}, the latest time a clock may show`;
  if (past(stored.offsetMs)) return `a sandbox clock ${bound} (stored offset ${stored.offsetMs / 1000} s)`;
  for (const [id, ms] of Object.entries(stored.accountOffsets)) {
    if (past(stored.offsetMs + Math.max(0, ms)))
      return `a clock of account ${id} ${bound} (stored offset ${(stored.offsetMs + ms) / 1000} s)`;
  }
  return null;
}

/** Recently formatted timestamps: a read formats the same `created_at`/`updated_at` again and again. */
const formatted = new Map<number, string>();
const FORMATTED_KEPT = 4096;

/** ISO 8601 with milliseconds and a numeric offset, as every time the sandbox writes: `2026-11-22T10:00:00.000+00:00`. */
export function isoTimestamp(ms: number): string {
  let text = formatted.get(ms);
  if (text === undefined) {
    text = `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
    if (formatted.size >= FORMATTED_KEPT) formatted.clear();
    formatted.set(ms, text);
  }
  return text;
}
