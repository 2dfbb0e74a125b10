/** Per-URL lanes (lanes.ts): at most N under way to one URL, the rest wait in order; URLs are independent. */
import { describe, expect, it } from 'vitest';
import { Lanes, MAX_IN_FLIGHT_PER_URL } from '../../../../src/core/webhooks/lanes.js';
import { flush } from './fake-deliveries.js';

describe('Lanes', () => {
  it(`holds at most ${MAX_IN_FLIGHT_PER_URL} to one URL; another URL does not wait; a release hands the slot on in order`, async () => {
    const lanes = new Lanes();
    const started: string[] = [];
    for (let i = 0; i < MAX_IN_FLIGHT_PER_URL + 2; i += 1) void lanes.acquire('http://slow.test').then(() => started.push(`slow ${i}`));
    void lanes.acquire('http://fast.test').then(() => started.push('fast'));
    await flush();
    expect(started.filter((s) => s.startsWith('slow'))).toHaveLength(MAX_IN_FLIGHT_PER_URL);
    expect(started).toContain('fast');
    lanes.release('http://slow.test');
    await flush();
    expect(started.at(-1)).toBe(`slow ${MAX_IN_FLIGHT_PER_URL}`);
  });

  it('drops a lane once nothing is under way or waiting on it', async () => {
    const lanes = new Lanes(1);
    await lanes.acquire('http://a.test');
    expect(lanes.size).toBe(1);
    lanes.release('http://a.test');
    expect(lanes.size).toBe(0);
    lanes.release('http://unknown.test'); // a release without a lane is ignored
    expect(lanes.size).toBe(0);
  });
});
