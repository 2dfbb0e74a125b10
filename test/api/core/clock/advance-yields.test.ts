/**
 * A clock advance never holds the event loop for a whole backlog: 1,000 checkout
 * payment links expiring at one instant froze the server for 0.9 s with `wait_for_webhooks: false`. Here a
 * probe runs at every turn of the event loop (setImmediate) while the advance runs and
 * records how much work was done since the previous turn: no timing, only counts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxApp } from '../../../../src/app.js';
import { LINK_EXPIRY_BATCH } from '../../../../src/features/transactions/transactions.js';
import { CHECKOUT, headers, testApp } from '../../../support/app.js';

let current: SandboxApp | undefined;
afterEach(async () => {
  await current?.lifecycle.close();
  current = undefined;
});

/** Runs `work`, counting `measure()` at every event-loop turn meanwhile; the largest growth between two turns. */
async function largestStepBetweenTurns(
  work: () => Promise<unknown>,
  measure: () => number,
): Promise<{ largest: number; turns: number; total: number }> {
  let done = false;
  let last = measure();
  let largest = 0;
  let turns = 0;
  const probe = (): void => {
    if (done) return; // the sandbox may be closed by then
    const now = measure();
    largest = Math.max(largest, now - last);
    last = now;
    turns += 1;
    if (!done) setImmediate(probe);
  };
  setImmediate(probe);
  try {
    await work();
  } finally {
    done = true;
  }
  const end = measure();
  largest = Math.max(largest, end - last);
  return { largest, turns, total: end };
}

describe('a clock advance yields to the event loop in bounded batches', () => {
  it('1,000 payment links expiring at once: at most one batch between two turns of the event loop', async () => {
    current = testApp();
    const { app, db } = current;
    const h = headers(CHECKOUT);
    for (let i = 0; i < 1000; i++) {
      const res = await app.request('/v4/transactions', {
        method: 'POST',
        headers: h,
        body: JSON.stringify({ amount: 100 + i, currency: 'USD', return_url: 'https://shop.example/ok' }),
      });
      expect(res.status).toBe(201);
    }
    const failed = db.prepare("SELECT count(*) AS n FROM transactions WHERE status = 'FAILED'").pluck();
    const advance = async (): Promise<Response> =>
      app.request('/_sandbox/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 2 * 86_400, wait_for_webhooks: false }),
      });
    const { largest, total } = await largestStepBetweenTurns(
      async () => expect((await advance()).status).toBe(200),
      () => failed.get() as number,
    );
    expect(total).toBe(1000); // every link expired
    expect(largest).toBeLessThanOrEqual(LINK_EXPIRY_BATCH);
  });
});
