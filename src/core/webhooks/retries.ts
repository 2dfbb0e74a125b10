/**
 * The retry policy of webhook deliveries: a failed attempt is retried on the sandbox clock
 * 10 s, 20 s, 40 s, ... later (capped at 6 h), up to `MAX_ATTEMPTS` attempts in all.
 */
import type { Delivery } from '../domain/entities.js';

/** First retry delay; each further retry doubles it, up to `MAX_RETRY_DELAY_S`. */
export const FIRST_RETRY_DELAY_S = 10;
export const MAX_RETRY_DELAY_S = 6 * 60 * 60;
/** After this many failed attempts a delivery is marked `failed` (it can still be resent). */
export const MAX_ATTEMPTS = 16;

/** Delay before attempt `n + 1` after `n` failed attempts: 10 s, 20 s, 40 s, ... capped at 6 h. */
export function retryDelaySeconds(failedAttempts: number): number {
  return Math.min(FIRST_RETRY_DELAY_S * 2 ** (failedAttempts - 1), MAX_RETRY_DELAY_S);
}

/** The attempts of `rows` (pending deliveries) that fall due up to `untilMs`, retries included. */
export function attemptsDue(rows: Iterable<Pick<Delivery, 'next_attempt_at' | 'attempts'>>, untilMs: number): number {
  let count = 0;
  for (const row of rows) {
    let at = row.next_attempt_at ?? untilMs;
    for (let n = row.attempts; at <= untilMs && n < MAX_ATTEMPTS; n += 1) {
      count += 1;
      at += retryDelaySeconds(n + 1) * 1000;
    }
  }
  return count;
}
