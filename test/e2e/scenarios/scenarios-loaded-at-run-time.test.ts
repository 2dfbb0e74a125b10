/**
 * Scenarios loaded at run time over a real socket (the rules themselves, the reset that rewinds
 * the clock and the filtered request log are checked through the app in
 * api/sandbox/reset-scenarios-and-request-filters).
 */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server.js';
import { body, directPayment, headers } from '../../support/app.js';

const jsonPost = (payload: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(payload),
});

/** A scenario that fails every USD payment of exactly 4242 (no start-up rule decides that amount). */
const DECLINE_4242 = {
  name: 'ci-runtime',
  description: 'loaded by a test',
  rules: [{ name: 'decline 42.42', match: { amount: 4242, currency: 'USD' }, steps: [{ outcome: 'FAILED' }] }],
};

describe('scenarios loaded at run time', () => {
  it('work over a socket', async () => {
    const server = await startServer({ port: 0, host: '127.0.0.1', ticker: false });
    try {
      const res = await fetch(`${server.url}/_sandbox/scenarios`, jsonPost(DECLINE_4242));
      expect(res.status).toBe(201);
      const tx = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ amount: 4242 })),
      });
      expect((await body<{ status: string }>(tx)).status).toBe('FAILED');
      expect((await fetch(`${server.url}/_sandbox/scenarios/${encodeURIComponent('ci-runtime')}`, { method: 'DELETE' })).status).toBe(204);
    } finally {
      await server.stop();
    }
  });
});
