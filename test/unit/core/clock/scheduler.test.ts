/**
 * The scheduler's clock advance against the real SQLite store: a slice of steps and the new
 * clock offset commit together (a step that throws rolls back alone, on a --db file too),
 * an advance estimated past the step limit is refused before anything moves, and a long
 * advance gives the event loop turns between steps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../../../src/core/clock/clock.js';
import { SandboxError } from '../../../../src/core/domain/errors.js';
import type { UnitOfWork } from '../../../../src/core/domain/ports.js';
import { Scheduler } from '../../../../src/core/clock/scheduler.js';
import { AdvanceStoppedError, AdvanceTooLongError, ClockBoundError, type TimedWork } from '../../../../src/core/clock/timed-work.js';
import { LATEST_CLOCK_MS, storedClockPastBound } from '../../../../src/core/clock/clock.js';
import { createAccountClocks } from '../../../../src/core/clock/account-clocks.js';
import { openStore, type SqliteStore } from '../../../../src/sqlite-store.js';

const REAL_NOW = Date.UTC(2026, 10, 22, 10);
const HOUR = 3_600_000;

/** A timed work due every hour from REAL_NOW + 1 h, writing a row per run; it throws on run `failOn`. */
function hourlyWork(store: SqliteStore, opts: { failOn?: number; count?: number } = {}): TimedWork & { runs: number } {
  store.db.exec('CREATE TABLE IF NOT EXISTS probe (at INTEGER NOT NULL)');
  const insert = store.db.prepare('INSERT INTO probe (at) VALUES (?)');
  let next = REAL_NOW + HOUR;
  const work = {
    name: 'hourly probe',
    runs: 0,
    nextDueMs: () => next,
    runDue(nowMs: number) {
      work.runs += 1;
      insert.run(nowMs);
      next = nowMs + HOUR; // moves forward inside the step (restored below when the step fails)
      if (work.runs === opts.failOn) {
        next = nowMs; // the failed step stays due
        throw new Error('probe failed midway');
      }
    },
    countDue: (untilMs: number) => opts.count ?? Math.max(0, Math.floor((untilMs - next) / HOUR) + 1),
  };
  return work;
}

function schedulerOn(store: SqliteStore, maxSteps?: number) {
  const clock = createClock(store.clockOffsetMs(), () => REAL_NOW);
  const errors: string[] = [];
  const scheduler = new Scheduler({
    clock,
    uow: store.uow,
    saveOffset: (ms) => store.saveClockOffset(ms),
    onError: (work) => errors.push(work),
    maxSteps,
  });
  return { clock, scheduler, errors };
}

const probeRows = (store: SqliteStore): number[] =>
  (store.db.prepare('SELECT at FROM probe ORDER BY at').pluck().all() as number[]).map(Number);

describe('clock advance: atomic on disk, a failed step rolled back alone', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('a step that throws midway rolls back alone: the clock and the saved offset stay at the last committed step', async () => {
    const store = openStore(':memory:', () => undefined);
    const { clock, scheduler, errors } = schedulerOn(store);
    scheduler.register(hourlyWork(store, { failOn: 3 }));
    const failure = await scheduler.advance(10 * 3600).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(SandboxError);
    expect((failure as SandboxError).status).toBe(500);
    expect(errors).toEqual(['hourly probe']);
    // Steps 1 and 2 committed; step 3 wrote a row and then threw: its row is gone.
    expect(probeRows(store)).toEqual([REAL_NOW + HOUR, REAL_NOW + 2 * HOUR]);
    expect(clock.offsetMs()).toBe(2 * HOUR);
    expect(store.clockOffsetMs()).toBe(2 * HOUR);
    store.close();
  });

  it('on a --db file, the offset read after a restart matches the data of the failed advance', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-clock-'));
    dirs.push(dir);
    const path = join(dir, 'sandbox.db');
    const first = openStore(path, () => undefined);
    const { scheduler } = schedulerOn(first);
    scheduler.register(hourlyWork(first, { failOn: 4 }));
    await expect(scheduler.advance(24 * 3600)).rejects.toThrow(/stopped/);
    first.close();

    const reopened = openStore(path, () => undefined);
    const rows = probeRows(reopened);
    expect(rows).toHaveLength(3);
    // The last step that ran is exactly where the persisted clock stands.
    expect(REAL_NOW + reopened.clockOffsetMs()).toBe(rows[rows.length - 1]);
    reopened.close();
  });

  it('a successful advance saves the target offset with the last step', async () => {
    const store = openStore(':memory:', () => undefined);
    const { clock, scheduler } = schedulerOn(store);
    scheduler.register(hourlyWork(store));
    expect(await scheduler.advance(5.5 * 3600)).toBe(5);
    expect(probeRows(store)).toHaveLength(5);
    expect(clock.offsetMs()).toBe(5.5 * HOUR);
    expect(store.clockOffsetMs()).toBe(5.5 * HOUR);
    store.close();
  });
});

describe('clock advance: slices of steps, each committed with its offset', () => {
  it('commits many steps with the offset of the last of them in one unit of work, and the disk never runs ahead or behind', async () => {
    const store = openStore(':memory:', () => undefined);
    const clock = createClock(store.clockOffsetMs(), () => REAL_NOW);
    // After every commit the saved offset is where the last committed step put the clock.
    const commits: { offset: number; lastRow: number | undefined }[] = [];
    let depth = 0;
    const uow: UnitOfWork = {
      run<T>(work: () => T): T {
        depth += 1;
        try {
          return store.uow.run(work);
        } finally {
          depth -= 1;
          if (depth === 0) commits.push({ offset: store.clockOffsetMs(), lastRow: probeRows(store).at(-1) });
        }
      },
      join: (work) => store.uow.join(work),
      afterCommit: (effect, key) => store.uow.afterCommit(effect, key),
    };
    const scheduler = new Scheduler({ clock, uow, saveOffset: (ms) => store.saveClockOffset(ms), onError: () => undefined });
    scheduler.register(hourlyWork(store));
    expect(await scheduler.advance(100 * 3600 + 60)).toBe(100);
    expect(probeRows(store)).toHaveLength(100);
    // Fast steps share units of work (the last unit only sets the final offset).
    expect(commits.length - 1).toBeLessThan(100);
    for (const commit of commits.slice(0, -1)) expect(REAL_NOW + commit.offset).toBe(commit.lastRow);
    expect(commits.at(-1)!.offset).toBe(100 * HOUR + 60_000);
    store.close();
  });
});

describe('clock advance: bounded and never freezing', () => {
  it('an advance estimated past the step limit is refused with a 400 before anything moves', async () => {
    const store = openStore(':memory:', () => undefined);
    const { clock, scheduler } = schedulerOn(store, 100);
    const work = hourlyWork(store);
    scheduler.register(work);
    const failure = await scheduler.advance(200 * 3600).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AdvanceTooLongError);
    expect((failure as AdvanceTooLongError).status).toBe(400);
    expect((failure as AdvanceTooLongError).estimatedSteps).toBe(200);
    expect(work.runs).toBe(0);
    expect(clock.offsetMs()).toBe(0);
    expect(store.clockOffsetMs()).toBe(0);
    // Within the limit it runs.
    expect(await scheduler.advance(100 * 3600)).toBe(100);
    store.close();
  });

  it('checkAdvance refuses what advance would refuse for its length, and moves nothing either way', () => {
    const store = openStore(':memory:', () => undefined);
    const { clock, scheduler } = schedulerOn(store, 100);
    const work = hourlyWork(store);
    scheduler.register(work);
    expect(() => scheduler.checkAdvance(200 * 3600)).toThrow(AdvanceTooLongError);
    expect(() => scheduler.checkAdvance(100 * 3600)).not.toThrow();
    expect(work.runs).toBe(0);
    expect(clock.offsetMs()).toBe(0);
    store.close();
  });

  it('a long advance gives other callbacks turns of the event loop before it ends', async () => {
    const store = openStore(':memory:', () => undefined);
    const { scheduler } = schedulerOn(store);
    const work = hourlyWork(store);
    const slow = {
      ...work,
      runDue: (nowMs: number) => {
        const until = performance.now() + 1; // 1 ms of work per step: 40 ms in all, several YIELD_EVERY_MS
        while (performance.now() < until);
        work.runDue(nowMs, true);
      },
    };
    scheduler.register(slow);
    let advanced = false;
    const advance = scheduler.advance(40 * 3600).then(() => (advanced = true));
    // A timer callback stands for another request: it runs while the advance is under way.
    const seenDuringAdvance = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!advanced), 0));
    expect(seenDuringAdvance).toBe(true);
    await advance;
    expect(work.runs).toBe(40);
    store.close();
  });
});

describe('clock advance: says what it did', () => {
  it('steps that make more work than the estimate saw stop at the limit: the answer says how far it moved and how many ran', async () => {
    const store = openStore(':memory:', () => undefined);
    const { clock, scheduler } = schedulerOn(store, 100);
    const work = hourlyWork(store, { count: 1 }); // estimates one step: every run makes the next
    scheduler.register(work);
    const failure = await scheduler.advance(200 * 3600).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AdvanceStoppedError);
    const stopped = failure as AdvanceStoppedError;
    expect(stopped.status).toBe(400);
    expect(work.runs).toBe(100);
    expect(clock.offsetMs()).toBe(100 * HOUR);
    expect(store.clockOffsetMs()).toBe(100 * HOUR);
    expect(stopped.extra).toEqual({
      now: '2026-11-26T14:00:00.000+00:00',
      offset_seconds: 100 * 3600,
      moved_seconds: 100 * 3600,
      remaining_seconds: 100 * 3600,
      steps: 100,
    });
    expect(stopped.message).toMatch(/stopped at its limit of 100 steps: the clock moved 360000 s of the 720000 s asked/);
    expect(stopped.message).not.toMatch(/Nothing moved/);
    store.close();
  });

  it('a refusal before anything moves says so, with nothing moved', async () => {
    const store = openStore(':memory:', () => undefined);
    const { scheduler } = schedulerOn(store, 100);
    scheduler.register(hourlyWork(store));
    const failure = (await scheduler.advance(200 * 3600).catch((err: unknown) => err)) as AdvanceTooLongError;
    expect(failure.extra).toEqual({ moved_seconds: 0, steps: 0 });
    store.close();
  });
});

describe('clock advance: never past 9999-12-31T23:59:59Z', () => {
  const nearTheBound = (accountOffsets: Record<string, number> = {}) => {
    const accounts = createAccountClocks(accountOffsets);
    const clock = createClock(LATEST_CLOCK_MS - 10 * HOUR - REAL_NOW, () => REAL_NOW, accounts);
    const store = openStore(':memory:', () => undefined);
    const scheduler = new Scheduler({ clock, uow: store.uow, saveOffset: () => undefined, onError: () => undefined });
    // Due every hour of the clock, from an hour after where it starts.
    let next = clock.nowMs() + HOUR;
    const work = {
      name: 'hourly',
      runs: 0,
      nextDueMs: () => next,
      runDue: (nowMs: number) => void ((work.runs += 1), (next = nowMs + HOUR)),
    };
    scheduler.register(work);
    return { clock, store, scheduler, work };
  };

  it('an advance past it is refused before anything moves; up to it is allowed', async () => {
    const { clock, store, scheduler, work } = nearTheBound();
    const before = clock.offsetMs();
    const failure = await scheduler.advance(10 * 3600 + 1).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ClockBoundError);
    expect((failure as ClockBoundError).status).toBe(400);
    expect((failure as ClockBoundError).leftSeconds).toBe(10 * 3600);
    expect(() => scheduler.checkAdvance(10 * 3600 + 1)).toThrow(ClockBoundError);
    expect(clock.offsetMs()).toBe(before);
    expect(work.runs).toBe(0);
    await scheduler.advance(10 * 3600);
    expect(clock.nowMs()).toBe(LATEST_CLOCK_MS);
    expect(scheduler.roomMs()).toBe(0);
    store.close();
  });

  it("a global advance counts every account's own offset; an account's advance counts its own clock", async () => {
    const { clock, store, scheduler } = nearTheBound({ acc_ahead: 6 * HOUR });
    expect(scheduler.roomMs()).toBe(4 * HOUR);
    await expect(scheduler.advance(5 * 3600)).rejects.toBeInstanceOf(ClockBoundError);
    await expect(scheduler.advanceAccount('acc_ahead', 5 * 3600)).rejects.toBeInstanceOf(ClockBoundError);
    // Another account's clock has the sandbox clock's room.
    await scheduler.advanceAccount('acc_behind', 9 * 3600);
    expect(clock.inAccount('acc_behind', () => LATEST_CLOCK_MS - clock.nowMs())).toBe(HOUR);
    expect(scheduler.roomMs()).toBe(HOUR);
    store.close();
  });

  it('stored offsets past it are named (the sandbox clock, or an account clock on top of it); within it, none', () => {
    const within = LATEST_CLOCK_MS - REAL_NOW;
    expect(storedClockPastBound({ offsetMs: within, accountOffsets: { acc_a: 0 } }, REAL_NOW)).toBeNull();
    expect(storedClockPastBound({ offsetMs: within + 1, accountOffsets: {} }, REAL_NOW)).toMatch(
      /^a sandbox clock past 9999-12-31T23:59:59Z/,
    );
    expect(storedClockPastBound({ offsetMs: within - HOUR, accountOffsets: { acc_a: HOUR + 1 } }, REAL_NOW)).toMatch(
      /^a clock of account acc_a past 9999-12-31T23:59:59Z/,
    );
    expect(storedClockPastBound({ offsetMs: Number.NaN, accountOffsets: {} }, REAL_NOW)).not.toBeNull();
  });

  it('real time moving on after an advance to the bound never takes a clock past it', () => {
    let real = REAL_NOW;
    const clock = createClock(LATEST_CLOCK_MS - REAL_NOW, () => real);
    real += 60_000;
    expect(clock.nowMs()).toBe(LATEST_CLOCK_MS);
    expect(clock.now().toISOString()).toBe('9999-12-31T23:59:59.000Z');
  });
});

describe('upkeep', () => {
  it('is run by the ticker when due, never as a step of an advance: the steps count only timed work', async () => {
    const store = openStore(':memory:', () => undefined);
    const { clock, scheduler } = schedulerOn(store);
    scheduler.register(hourlyWork(store));
    const ran: number[] = [];
    scheduler.registerUpkeep({ name: 'upkeep probe', nextDueMs: () => REAL_NOW + HOUR / 2, runDue: (nowMs) => void ran.push(nowMs) });
    expect(await scheduler.advance(3 * 3600)).toBe(3);
    expect(ran).toEqual([]);
    scheduler.tick();
    expect(ran).toEqual([clock.nowMs()]);
    store.close();
  });
});
