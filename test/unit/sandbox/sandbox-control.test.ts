/** Reset and the clock advance, on fakes: what they drive, in which order, and what the change feed hears. */
import { describe, expect, it } from 'vitest';
import { createSandboxControl, type SandboxControlDeps } from '../../../src/features/sandbox/sandbox-control.js';
import { fakeUnitOfWork } from '../../support/fakes.js';

function setup(steps = 3) {
  const calls: string[] = [];
  const published: { type: string; data: unknown }[] = [];
  const uow = fakeUnitOfWork();
  let offset = 0;
  let resolveIdle: () => void = () => undefined;
  const deps: SandboxControlDeps = {
    scheduler: {
      advance: async (seconds, { waitForIo }) => {
        calls.push(`advance ${seconds} waitForIo=${waitForIo}`);
        offset += seconds * 1000;
        return steps;
      },
      advanceAccount: async (accountId, seconds) => (calls.push(`advanceAccount ${accountId} ${seconds}`), steps),
      checkAdvance: (seconds) => void calls.push(`checkAdvance ${seconds}`),
      roomMs: () => 1000,
      interrupt: () => void calls.push('interrupt'),
    },
    clock: {
      nowMs: () => Date.UTC(2026, 0, 1) + offset,
      offsetMs: () => offset,
      rewind: () => void (calls.push('rewind'), (offset = 0)),
      inAccount: (_accountId, work) => work(),
    },
    uow: { run: (work) => uow.run(() => (calls.push('uow.run'), work())) },
    state: { wipe: () => void calls.push('wipe'), saveClockOffset: (ms) => void calls.push(`saveClockOffset ${ms}`) },
    buyers: { reseedBuyers: () => void calls.push('reseedBuyers') },
    report: { clear: () => void calls.push('report.clear') },
    webhooks: {
      nudge: () => void calls.push('nudge'),
      idle: () => new Promise<void>((resolve) => ((resolveIdle = () => (calls.push('idle'), resolve())), calls.push('idle?'))),
    },
    feed: { emit: (type, _account, data) => void (calls.push(`feed ${type}`), published.push({ type, data })) },
  };
  return { control: createSandboxControl(deps), calls, published, finishWebhooks: () => resolveIdle() };
}

describe('createSandboxControl', () => {
  it('reset interrupts an advance, wipes and reseeds in one unit of work, clears the report, then tells the feed', () => {
    const { control, calls, published } = setup();
    control.reset();
    expect(calls).toEqual(['interrupt', 'uow.run', 'wipe', 'reseedBuyers', 'report.clear', 'feed sandbox.reset']);
    expect(published).toEqual([{ type: 'sandbox.reset', data: { rewound_clock: false } }]);
  });

  it('reset with rewindClock also sends the clock back to real time and persists offset 0, inside the same unit of work', () => {
    const { control, calls, published } = setup();
    control.reset({ rewindClock: true });
    expect(calls).toEqual([
      'interrupt',
      'uow.run',
      'wipe',
      'reseedBuyers',
      'rewind',
      'saveClockOffset 0',
      'report.clear',
      'feed sandbox.reset',
    ]);
    expect(published[0]!.data).toEqual({ rewound_clock: true });
  });

  it('a reset whose wipe throws tells nobody (no report clear, no feed event)', () => {
    const calls: string[] = [];
    const failing = createSandboxControl({
      scheduler: {
        advance: async () => 0,
        advanceAccount: async () => 0,
        checkAdvance: () => undefined,
        roomMs: () => 0,
        interrupt: () => undefined,
      },
      clock: { nowMs: () => 0, offsetMs: () => 0, rewind: () => undefined, inAccount: (_accountId, work) => work() },
      uow: fakeUnitOfWork(),
      state: {
        wipe: () => {
          throw new Error('disk full');
        },
        saveClockOffset: () => undefined,
      },
      buyers: { reseedBuyers: () => undefined },
      report: { clear: () => void calls.push('report.clear') },
      webhooks: { nudge: () => undefined, idle: async () => undefined },
      feed: { emit: (type) => void calls.push(`feed ${type}`) },
    });
    expect(() => failing.reset()).toThrow('disk full');
    expect(calls).toEqual([]);
  });

  it('advanceClock waits for the webhooks it queued before it answers, then reports the new time and the steps', async () => {
    const { control, calls, published, finishWebhooks } = setup(3);
    const done = control.advanceClock(60);
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toEqual(['advance 60 waitForIo=true', 'nudge', 'idle?']);
    expect(published).toEqual([]); // not before the webhooks had their attempt
    finishWebhooks();
    expect(await done).toBe(3);
    expect(calls.at(-1)).toBe('feed clock.advanced');
    expect(published).toEqual([{ type: 'clock.advanced', data: { now: '2026-01-01T00:01:00.000+00:00', offset_ms: 60_000, steps: 3 } }]);
  });

  it('advanceClock with waitForWebhooks false neither nudges nor waits', async () => {
    const { control, calls } = setup(1);
    expect(await control.advanceClock(5, { waitForWebhooks: false })).toBe(1);
    expect(calls).toEqual(['advance 5 waitForIo=false', 'feed clock.advanced']);
  });

  it('checkAdvance asks the scheduler and tells nobody: it moves nothing', () => {
    const { control, calls, published } = setup();
    control.checkAdvance(30);
    expect(calls).toEqual(['checkAdvance 30']);
    expect(published).toEqual([]);
  });
});
