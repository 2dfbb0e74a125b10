/** The passes over due deliveries (passes.ts) and the clock offsets attempts are stamped from (clock-offsets.ts), on a fake clock and fake real time. */
import { describe, expect, it } from 'vitest';
import { ClockOffsets } from '../../../../src/core/webhooks/clock-offsets.js';
import { FULL_PASS_EVERY_MS, Passes } from '../../../../src/core/webhooks/passes.js';
import { delivery, fakeDeliveries, fakeRealTime } from './fake-deliveries.js';

const T = Date.UTC(2026, 10, 22, 10);

function seen(passes: Passes, nowMs: number): string[] {
  const ids: string[] = [];
  passes.run(nowMs, (row) => ids.push(row.id));
  return ids;
}

describe('Passes', () => {
  it('reads every due delivery first, then only what fell due since the last pass', () => {
    const early = delivery({ next_attempt_at: T });
    const later = delivery({ next_attempt_at: T + 10_000 });
    const passes = new Passes({ deliveries: fakeDeliveries(early, later), time: fakeRealTime() });
    expect(seen(passes, T + 1)).toEqual([early.id]);
    expect(seen(passes, T + 20_000)).toEqual([later.id]);
    expect(passes.nextDueMs(T + 20_000, () => false)).toBeNull();
  });

  it('reads everything again after readAll, when the clock went back, and every FULL_PASS_EVERY_MS of real time', () => {
    const row = delivery({ next_attempt_at: T });
    const time = fakeRealTime();
    const passes = new Passes({ deliveries: fakeDeliveries(row), time });
    seen(passes, T + 1);
    expect(seen(passes, T + 2)).toEqual([]);
    passes.readAll();
    expect(seen(passes, T + 3)).toEqual([row.id]);
    expect(seen(passes, T + 1)).toEqual([row.id]); // the clock went back before the last pass
    time.advance(FULL_PASS_EVERY_MS + 1);
    expect(seen(passes, T + 4)).toEqual([row.id]);
  });

  it('a pass visits no delivery under way, and a full pass does not even read its row; an incremental pass still sees what fell due', () => {
    const busy = delivery({ next_attempt_at: T - 5 });
    const idle = delivery({ next_attempt_at: T - 5 });
    const later = delivery({ next_attempt_at: T + 10 });
    const laterBusy = delivery({ next_attempt_at: T + 10 });
    const repo = fakeDeliveries(busy, idle, later, laterBusy);
    const read: string[] = [];
    const byId = repo.byId;
    repo.byId = (id) => (read.push(id), byId(id));
    const passes = new Passes({ deliveries: repo, time: fakeRealTime() });
    const ids: string[] = [];
    const underWay = (id: string) => id === busy.id || id === laterBusy.id;
    passes.run(T, (row) => ids.push(row.id), underWay);
    expect(ids).toEqual([idle.id]);
    expect(read).toEqual([idle.id]);
    passes.run(T + 10, (row) => ids.push(row.id), underWay);
    expect(ids).toEqual([idle.id, later.id]);
  });

  it('a pass that fails part-way leaves the next pass to read everything (the rest were not seen)', () => {
    const a = delivery({ next_attempt_at: T });
    const b = delivery({ next_attempt_at: T });
    const passes = new Passes({ deliveries: fakeDeliveries(a, b), time: fakeRealTime() });
    expect(() =>
      passes.run(T, () => {
        throw new Error('SQLITE_FULL');
      }),
    ).toThrow('SQLITE_FULL');
    expect(seen(passes, T + 1)).toEqual([a.id, b.id]);
  });

  it('while backing off a pass is skipped: the scheduler is not told it is due; queued ones are left to their nudge', () => {
    const row = delivery({ next_attempt_at: T + 5000 });
    const passes = new Passes({ deliveries: fakeDeliveries(row), time: fakeRealTime() });
    expect(passes.nextDueMs(T, () => false)).toBe(T + 5000);
    passes.skip(T + 6000);
    expect(passes.nextDueMs(T + 6000, () => false)).toBeNull();
    passes.readAll();
    seen(passes, T);
    expect(passes.nextDueMs(T, (id) => id === row.id)).toBeNull();
    expect(passes.nextDueMs(T, () => false)).toBe(T + 5000);
  });
});

describe('ClockOffsets', () => {
  it("stamps a delivery queued during an advance from the offset it was queued at, a retry from its attempt's", () => {
    let offset = 0;
    let now = T;
    const offsets = new ClockOffsets({ nowMs: () => now, offsetMs: () => offset });
    offsets.queued('dl_1', T); // due at once, queued at offset 0
    offsets.queued('dl_2', T + 1); // not due yet: nothing kept
    expect(offsets.isQueued('dl_1')).toBe(true);
    expect(offsets.isQueued('dl_2')).toBe(false);
    offset = 60_000; // the advance moves on before the commit
    now = T + 60_000;
    const admitted = offsets.admit('dl_1');
    expect(admitted).toBe(0);
    expect(offsets.instant(admitted)).toBe(T);
    expect(offsets.isQueued('dl_1')).toBe(false);
    expect(offsets.admit('dl_3')).toBe(60_000); // queued in real time: now
    offsets.overdue('dl_4', 10_000);
    expect(offsets.admit('dl_4')).toBe(10_000);
    offsets.queued('dl_5', now);
    offsets.passed();
    expect(offsets.isQueued('dl_5')).toBe(false);
  });
});
