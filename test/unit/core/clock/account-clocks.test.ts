import { executionAsyncResource } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createAccountClocks } from '../../../../src/core/clock/account-clocks.js';
import { createClock } from '../../../../src/core/clock/clock.js';

const HOUR = 3_600_000;

describe('a clock per account', () => {
  it('runs work for an account without an async context until an account clock first moves', async () => {
    const clocks = createAccountClocks();
    const clock = createClock(0, () => 1_000_000, clocks);
    const resource = executionAsyncResource();
    // Every account's clock is the sandbox clock: the work runs as it is.
    expect(clock.inAccount('acc_a', () => ({ scope: clock.account(), now: clock.nowMs() }))).toEqual({ scope: null, now: 1_000_000 });
    expect(clock.inAccount('acc_a', () => executionAsyncResource())).toBe(resource);
    // An account's own advance moves its clock alone...
    await clock.movingAccount('acc_a', async () => {
      expect(clock.account()).toBe('acc_a');
      await Promise.resolve();
      clock.moveTo(clock.nowMs() + HOUR);
    });
    expect(clock.nowMs()).toBe(1_000_000);
    // ...and from then on every account's work runs on its own clock.
    expect(clock.inAccount('acc_a', () => clock.nowMs())).toBe(1_000_000 + HOUR);
    expect(clock.inAccount('acc_b', () => ({ scope: clock.account(), now: clock.nowMs() }))).toEqual({ scope: 'acc_b', now: 1_000_000 });
  });

  it('runs on each account clock from the start when offsets were saved', () => {
    const clocks = createAccountClocks({ acc_a: HOUR });
    const clock = createClock(0, () => 1_000_000, clocks);
    expect(clock.inAccount('acc_a', () => clock.nowMs())).toBe(1_000_000 + HOUR);
    // Offsets loaded after start (a --db file, a snapshot) turn the account clocks on too.
    const loaded = createAccountClocks();
    loaded.setOffset('acc_a', HOUR);
    expect(loaded.run('acc_b', () => loaded.scope())).toBe('acc_b');
  });
});
