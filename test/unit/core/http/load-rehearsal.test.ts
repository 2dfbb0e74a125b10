/** The load rehearsal's parts: reading `--latency`, the log-normal draw through p50 and p99, the token bucket. */
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { TokenBucket, latencyText, loadRehearsal, parseLatency, sampleLatency } from '../../../../src/core/http/load-rehearsal.js';
import type { ApiEnv } from '../../../../src/core/http/env.js';
import { resolveOptions } from '../../../../src/core/config.js';

/** A seeded uniform generator (mulberry32), so the draws are the same each run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('--latency', () => {
  it('takes milliseconds (a fixed time) or p50=MS,p99=MS, and refuses the rest naming what is wrong', () => {
    expect(parseLatency(250)).toEqual({ p50Ms: 250, p99Ms: 250 });
    expect(parseLatency('250')).toEqual({ p50Ms: 250, p99Ms: 250 });
    expect(parseLatency('p99=900, p50=80')).toEqual({ p50Ms: 80, p99Ms: 900 });
    expect(latencyText(parseLatency('p50=80,p99=900'))).toBe('p50=80,p99=900');
    expect(() => parseLatency('p50=80')).toThrow(/both p50=MS and p99=MS/);
    expect(() => parseLatency('p50=900,p99=80')).toThrow(/p99 must be at least p50/);
    expect(() => parseLatency('fast')).toThrow(/milliseconds/);
    expect(() => parseLatency(70_000)).toThrow(/0 to 60000/);
    expect(resolveOptions({ latency: 'p50=80,p99=900', rateLimit: '25' })).toMatchObject({
      latency: { p50Ms: 80, p99Ms: 900 },
      rateLimit: 25,
    });
    expect(() => resolveOptions({ latency: 'p50=80' })).toThrow(/invalid --latency "p50=80": must give both/);
    expect(() => resolveOptions({ rateLimit: -1 })).toThrow(/invalid --rate-limit/);
  });

  it('a distribution is log-normal through both points: the median near p50, the 99th percentile near p99', () => {
    const random = seeded(42);
    const draws = Array.from({ length: 20_000 }, () => sampleLatency({ p50Ms: 80, p99Ms: 900 }, random)).sort((x, y) => x - y);
    const at = (q: number) => draws[Math.floor(q * draws.length)]!;
    expect(at(0.5)).toBeGreaterThan(80 * 0.95);
    expect(at(0.5)).toBeLessThan(80 * 1.05);
    expect(at(0.99)).toBeGreaterThan(900 * 0.85);
    expect(at(0.99)).toBeLessThan(900 * 1.15);
    expect(sampleLatency({ p50Ms: 250, p99Ms: 250 }, random)).toBe(250);
  });
});

describe('the token bucket of --rate-limit', () => {
  it('lets a burst of N through, then one every 1/N s, and says how long to wait', () => {
    const bucket = new TokenBucket(4, 0);
    expect([0, 0, 0, 0].map(() => bucket.take(0))).toEqual([0, 0, 0, 0]);
    expect(bucket.take(0)).toBe(250);
    expect(bucket.take(100)).toBe(150);
    expect(bucket.take(250)).toBe(0);
    expect(bucket.take(10_000)).toBe(0); // refilled, never beyond the burst
    expect([1, 2, 3].map(() => bucket.take(10_000))).toEqual([0, 0, 0]);
    expect(bucket.take(10_000)).toBeGreaterThan(0);
  });
});

describe('the rate limit over a request', () => {
  it('answers a call over the budget 429 with Retry-After: 1, and serves the account again once that second has passed', async () => {
    let nowMs = 0;
    const rehearsal = loadRehearsal({
      settingsOf: () => ({ known: true, rateLimit: 1, latency: { p50Ms: 0, p99Ms: 0 } }),
      authenticatesAs: () => true,
      now: () => nowMs,
    });
    const app = new Hono<ApiEnv>();
    app.use('*', async (c, next) => {
      const refused = rehearsal.refused(c, c.req.header('x-merchant-account-id'));
      if (refused) return refused;
      await next();
    });
    app.get('/v4/x', (c) => c.text('ok', 200));
    const call = () => app.request('/v4/x', { headers: { 'x-merchant-account-id': 'V', authorization: 'Bearer own-key' } });
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    nowMs += 999;
    expect((await call()).status).toBe(429);
    nowMs += 1;
    expect((await call()).status).toBe(200);
  });
});

describe('the rate limit counts authenticated requests only', () => {
  it("a request whose token does not authenticate as the named account passes uncounted; the account's own calls are counted", async () => {
    const asked: string[] = [];
    const rehearsal = loadRehearsal({
      settingsOf: () => ({ known: true, rateLimit: 2, latency: { p50Ms: 0, p99Ms: 0 } }),
      authenticatesAs: (authorization, accountId) => {
        asked.push(accountId);
        return authorization === 'Bearer own-key';
      },
      now: () => 0,
    });
    const app = new Hono<ApiEnv>();
    app.use('*', async (c, next) => {
      const refused = rehearsal.refused(c, c.req.header('x-merchant-account-id'));
      if (refused) return refused;
      await next();
    });
    app.get('/v4/x', (c) => c.text('ok', 200));
    const call = async (authorization?: string): Promise<number> =>
      (await app.request('/v4/x', { headers: { 'x-merchant-account-id': 'V', ...(authorization ? { authorization } : {}) } })).status;
    for (let i = 0; i < 10; i++) expect(await call(i % 2 === 0 ? undefined : 'Bearer stolen')).toBe(200);
    expect([await call('Bearer own-key'), await call('Bearer own-key'), await call('Bearer own-key')]).toEqual([200, 200, 429]);
    expect(asked.every((id) => id === 'V')).toBe(true);
  });
});
