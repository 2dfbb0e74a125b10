/**
 * Each merchant account's own clock: the sandbox clock plus the account's own offset, which
 * `POST /_sandbox/accounts/{id}/clock/advance` moves forward and nothing else does. Work done
 * for an account (its requests, its timed work, its webhooks) runs inside `run(accountId, …)`,
 * and every read of the sandbox clock there (`clock.ts`) answers that account's time. Outside
 * any account the clock reads the sandbox clock alone.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AccountClocks {
  /** The account whose clock applies to the work under way, or null (the sandbox clock). */
  scope(): string | null;
  /** Runs `work` on `accountId`'s clock (a promise it returns keeps that clock to its end). */
  run<T>(accountId: string, work: () => T): T;
  /** Runs `work` on `accountId`'s clock to move it (its own advance): from then on every account's work runs on its own clock. */
  own<T>(accountId: string, work: () => T): T;
  /** Runs `work` on the sandbox clock, outside any account's. */
  outside<T>(work: () => T): T;
  /** How far `accountId`'s clock is ahead of the sandbox clock, in milliseconds (0 when never advanced). */
  offsetOf(accountId: string): number;
  /** Sets `accountId`'s own offset (0 drops it). */
  setOffset(accountId: string, offsetMs: number): void;
  /** The largest account's own offset, in milliseconds (0 when none is ahead). */
  largest(): number;
  /** True when some account's clock is ahead of the sandbox clock (the timed work then reads each account's time). */
  any(): boolean;
  /** Every account's own offset, for saving. */
  entries(): Record<string, number>;
  /** Drops every account's own offset (a reset that rewinds the clock). */
  clear(): void;
}

/** The accounts' own offsets, from `initial` (as last saved). */
export function createAccountClocks(initial: Record<string, number> = {}): AccountClocks {
  const offsets = new Map<string, number>();
  for (const [id, ms] of Object.entries(initial)) if (Number.isFinite(ms) && ms !== 0) offsets.set(id, ms);
  const storage = new AsyncLocalStorage<string>();
  // Until an account's clock first moves, every account's clock is the sandbox clock, and work
  // for an account runs as it is: no async context, whose promise hooks would cost every
  // request (about 15% of a GET's CPU on Node 20).
  let inUse = offsets.size > 0;
  const enter = <T>(accountId: string, work: () => T): T => (storage.getStore() === accountId ? work() : storage.run(accountId, work));
  return {
    scope: () => (inUse ? (storage.getStore() ?? null) : null),
    run: (accountId, work) => (inUse ? enter(accountId, work) : work()),
    own(accountId, work) {
      inUse = true;
      return enter(accountId, work);
    },
    outside: (work) => (storage.getStore() === undefined ? work() : storage.exit(work)),
    offsetOf: (accountId) => offsets.get(accountId) ?? 0,
    setOffset(accountId, offsetMs) {
      if (offsetMs === 0) offsets.delete(accountId);
      else {
        offsets.set(accountId, offsetMs);
        inUse = true;
      }
    },
    largest() {
      let most = 0;
      for (const ms of offsets.values()) if (ms > most) most = ms;
      return most;
    },
    any: () => offsets.size > 0,
    entries: () => Object.fromEntries(offsets),
    clear: () => offsets.clear(),
  };
}

/** Reads saved offsets (JSON of `entries()`); anything else is no offsets. */
export function parseAccountOffsets(text: string | undefined | null): Record<string, number> {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const out: Record<string, number> = {};
    for (const [id, ms] of Object.entries(parsed)) if (typeof ms === 'number' && Number.isFinite(ms)) out[id] = ms;
    return out;
  } catch {
    return {};
  }
}
