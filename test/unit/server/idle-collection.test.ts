/**
 * The full collections once traffic stops: when the watch collects (after work, once the loop
 * has been quiet long enough, and once more six quiet samples later, once per quiet period),
 * and that the collection it uses is V8's own.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { fullCollection, IDLE_COLLECTION_DEFAULTS, IDLE_START, idleStep, type LoopSample } from '../../../src/idle-collection.js';

const busy: LoopSample = { utilization: 0.9, activeMs: 900 };
const quiet: LoopSample = { utilization: 0.01, activeMs: 10 };

/** Feeds the samples in order from a fresh state; the indexes of the samples that collected. */
function collections(samples: LoopSample[]): number[] {
  let state = IDLE_START;
  const at: number[] = [];
  samples.forEach((sample, i) => {
    const step = idleStep(state, sample, IDLE_COLLECTION_DEFAULTS);
    state = step.state;
    if (step.collect) at.push(i);
  });
  return at;
}

const repeat = (sample: LoopSample, n: number): LoopSample[] => Array.from({ length: n }, () => sample);

describe('the watch for a quiet period', () => {
  it('collects after three quiet seconds that follow at least a second of work, and once more six seconds later', () => {
    expect(collections([...repeat(busy, 5), ...repeat(quiet, 20)])).toEqual([5 + 2, 5 + 8]);
  });

  it('never collects in a sandbox that has done no work since it started', () => {
    expect(collections(repeat(quiet, 60))).toEqual([]);
  });

  it('does not collect after too little work (a panel polling now and then)', () => {
    expect(collections([{ utilization: 0.2, activeMs: 200 }, ...repeat(quiet, 20)])).toEqual([]);
  });

  it('waits while traffic goes on, and starts the quiet count again when it returns', () => {
    const samples = [...repeat(busy, 3), quiet, quiet, ...repeat(busy, 2), ...repeat(quiet, 9)];
    expect(collections(samples)).toEqual([9, 15]);
  });

  it('drops the second collection when traffic comes back first, and collects again after the next quiet', () => {
    const samples = [...repeat(busy, 2), ...repeat(quiet, 4), ...repeat(busy, 2), ...repeat(quiet, 9)];
    expect(collections(samples)).toEqual([4, 10, 16]);
  });
});

describe('the full collection', () => {
  it('is a major collection by V8, and leaves the global without `gc`', async () => {
    const majors: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
          majors.push(entry);
    });
    observer.observe({ entryTypes: ['gc'] });
    const collect = fullCollection();
    collect();
    await new Promise((resolve) => setTimeout(resolve, 50));
    observer.disconnect();
    expect(majors.length).toBeGreaterThanOrEqual(1);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
