/**
 * A server started with the collections once traffic stops, over a real socket: creates keep it
 * busy, and once they stop and the loop has been quiet for the watch's samples, it collects, and
 * once more a few samples later; the sandbox answers as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { directPayment, headers } from '../../support/app.js';

let server: RunningServer;
let collected = 0;
beforeAll(async () => {
  server = await startServer(
    { port: 0, ticker: false },
    {
      collectWhenIdle: {
        intervalMs: 100,
        quietIntervals: 3,
        secondAfterIntervals: 3,
        quietUtilization: 0.5,
        busyMs: 50,
        collect: () => (collected += 1),
      },
    },
  );
});
afterAll(() => server.stop());

const create = async (i: number): Promise<number> =>
  (
    await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(undefined, { 'idempotency-key': `idle-${i}` }),
      body: JSON.stringify(directPayment()),
    })
  ).status;

describe('the collections once traffic stops', () => {
  it('run twice after a burst of creates, once the loop has been quiet, and the sandbox still answers', async () => {
    const started = Date.now();
    let i = 0;
    // At least the watch's busy time of work: creates until the loop has been busy for a while.
    while (Date.now() - started < 600) {
      const statuses = await Promise.all(Array.from({ length: 16 }, () => create(i++)));
      expect(statuses.every((s) => s === 201)).toBe(true);
    }
    expect(collected).toBe(0);
    const deadline = Date.now() + 15_000;
    while (collected < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(collected).toBe(2);
    // Still quiet: no third collection without new work.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(collected).toBe(2);
    expect(await create(i++)).toBe(201);
  });
});
