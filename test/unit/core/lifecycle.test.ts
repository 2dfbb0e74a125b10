/** How a sandbox stops, on fakes: the order of close, and the drain of webhooks. */
import { describe, expect, it } from 'vitest';
import { createLifecycle, type LifecycleDeps } from '../../../src/core/lifecycle.js';

function setup(persistent: boolean) {
  const calls: string[] = [];
  const deps: LifecycleDeps = {
    stopTicker: () => void calls.push('stopTicker'),
    accounts: { stopKeyPool: () => void calls.push('stopKeyPool'), storeOwed: () => void calls.push('storeOwed') },
    persistent,
    webhooks: {
      idle: async () => void calls.push('webhooks.idle'),
      close: () => void calls.push('webhooks.close'),
      drain: async (graceMs) => void calls.push(`webhooks.drain ${graceMs}`),
    },
    report: { flush: () => void calls.push('report.flush') },
    store: { close: () => void calls.push('store.close') },
    logger: { warn: (event) => void calls.push(`warn ${event}`) },
  };
  return { lifecycle: createLifecycle(deps), calls };
}

describe('createLifecycle', () => {
  it('close stops the timers, lets the webhooks finish, flushes the report and closes the database last', async () => {
    const { lifecycle, calls } = setup(false);
    await lifecycle.close();
    expect(calls).toEqual(['stopTicker', 'stopKeyPool', 'webhooks.idle', 'webhooks.close', 'report.flush', 'store.close']);
  });

  it('with a database file, the buyers owed to accounts are stored before it closes', async () => {
    const { lifecycle, calls } = setup(true);
    await lifecycle.close();
    expect(calls).toEqual(['stopTicker', 'stopKeyPool', 'webhooks.idle', 'webhooks.close', 'storeOwed', 'report.flush', 'store.close']);
  });

  it('drainWebhooks hands its grace to the dispatcher and closes nothing', async () => {
    const { lifecycle, calls } = setup(true);
    await lifecycle.drainWebhooks(1500);
    expect(calls).toEqual(['webhooks.drain 1500']);
  });

  it('a full disk at close is one warning per step: the database still closes, nothing is thrown', async () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const lines: string[] = [];
    const failing = createLifecycle({
      stopTicker: () => undefined,
      accounts: {
        stopKeyPool: () => undefined,
        storeOwed: () => {
          throw full;
        },
      },
      persistent: true,
      webhooks: { idle: async () => undefined, close: () => undefined, drain: async () => undefined },
      report: {
        flush: () => {
          throw full;
        },
      },
      store: { close: () => void lines.push('store.close') },
      logger: { warn: (event, text) => void lines.push(`${event}: ${text}`) },
    });
    await expect(failing.close()).resolves.toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(/^close\.buyers_not_stored: .*database or disk is full$/),
      expect.stringMatching(/^close\.report_not_stored: .*database or disk is full$/),
      'store.close',
    ]);
  });
});
