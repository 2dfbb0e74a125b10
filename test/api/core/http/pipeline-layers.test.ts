/**
 * The /v4 pipeline is one middleware on every /v4 path (the account clock, the request log,
 * the rate limit, the latency, the fault header) and one on each operation (authentication, the
 * scope, the body gate): a create meets two layers before its handler, not eight.
 */
import { describe, expect, it } from 'vitest';
import { testApp } from '../../../support/app.js';

describe('the /v4 pipeline', () => {
  it('is one middleware on /v4 and one guard per operation', () => {
    const { app } = testApp();
    const v4Middleware = app.routes.filter((r) => r.method === 'ALL' && r.path.startsWith('/v4'));
    expect(v4Middleware.map((r) => r.path)).toEqual(['/v4/*']);
    for (const path of ['/v4/transactions', '/v4/subscriptions']) {
      // The create's guard, then its handler (which validates the body once, by the account's mode).
      expect(
        app.routes.filter((r) => r.method === 'POST' && r.path === path),
        path,
      ).toHaveLength(2);
    }
    expect(app.routes.filter((r) => r.method === 'ALL' && r.path === '/buyers')).toHaveLength(1);
  });
});
