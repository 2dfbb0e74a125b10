/**
 * The webhooks of one subscription (its charges, each its own transaction) reach their URL in
 * the order of their events: a renewal's webhook waits while the first charge's is still
 * being answered. Real sandbox on a socket, real receiver on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { ACK, headers, startReceiver, type Receiver } from '../../support/app.js';
import { DAY, directSubscription } from '../../support/subscriptions.js';

const HOLD_MS = 1500;
let server: RunningServer;
let receiver: Receiver;
const arrivedAt: number[] = [];

beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false });
  receiver = await startReceiver();
  receiver.respond = (n) => {
    arrivedAt[n - 1] = Date.now();
    return n === 1 ? { ...ACK, delayMs: HOLD_MS } : ACK;
  };
});
afterAll(async () => {
  await receiver.close();
  await server.stop();
});

describe("one subscription's webhooks", () => {
  it("a renewal's webhook arrives only after the first charge's has been answered", async () => {
    const created = await fetch(`${server.url}/v4/subscriptions`, {
      method: 'POST',
      headers: headers(undefined, { 'x-forwarded-for': '203.0.113.7' }),
      body: JSON.stringify(directSubscription({ payment_method: { type: 'card', webhooks_url: receiver.url } })),
    });
    expect(created.status).toBe(201);
    await receiver.waitFor(1, 10_000);
    const advanced = await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 32 * DAY }),
    });
    expect(advanced.status).toBe(200);
    const [first, second] = await receiver.waitFor(2, 15_000);
    expect(first?.body).toMatchObject({ ll_transaction_id: expect.any(String) });
    expect((second?.body as { ll_transaction_id?: string }).ll_transaction_id).not.toBe(
      (first?.body as { ll_transaction_id?: string }).ll_transaction_id,
    );
    expect(arrivedAt[1]! - arrivedAt[0]!).toBeGreaterThanOrEqual(HOLD_MS - 50);
  });
});
