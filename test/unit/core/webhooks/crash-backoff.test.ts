/**
 * The back-off after failures of the sandbox itself (crash-backoff.ts), on fake real time, and
 * the dispatcher's recovery from a full disk on a fake HTTP client.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveriesRepo } from '../../../../src/core/domain/ports.js';
import { openStore, type SqliteStore } from '../../../../src/sqlite-store.js';
import { CRASH_BACKOFF_FIRST_MS, CRASH_BACKOFF_MAX_MS, CrashBackoff } from '../../../../src/core/webhooks/crash-backoff.js';
import { Dispatcher } from '../../../../src/core/webhooks/dispatcher.js';
import { fakeClock } from '../../../support/fakes.js';
import { delivery, fakePoster, fakeRealTime, flush } from './fake-deliveries.js';
import { deliveryResources } from '../../../../src/features/transactions/delivery-resources.js';

describe('CrashBackoff', () => {
  it('pauses for 250 ms, doubling at each failure in a row up to 30 s; reports each; ends when its timer fires', () => {
    const time = fakeRealTime();
    const events: string[] = [];
    const backoff = new CrashBackoff({
      onError: () => events.push('error'),
      onRecovered: () => events.push('recovered'),
      onResume: () => events.push('resume'),
      time,
    });
    expect(backoff.paused).toBe(false);
    backoff.crashed(new Error('full'));
    expect(backoff.paused).toBe(true);
    expect(time.timers.map((t) => t.at - time.now())).toEqual([CRASH_BACKOFF_FIRST_MS]);
    backoff.crashed(new Error('full'));
    expect(time.timers.map((t) => t.at - time.now())).toEqual([2 * CRASH_BACKOFF_FIRST_MS]);
    for (let i = 0; i < 20; i += 1) backoff.crashed(new Error('full'));
    expect(time.timers.map((t) => t.at - time.now())).toEqual([CRASH_BACKOFF_MAX_MS]);
    time.advance(CRASH_BACKOFF_MAX_MS);
    expect(backoff.paused).toBe(false);
    backoff.recorded();
    backoff.recorded();
    expect(events.filter((e) => e === 'error')).toHaveLength(22);
    expect(events.slice(-2)).toEqual(['resume', 'recovered']);
  });

  it('a timer that fires before real time reaches its end still ends the back-off', () => {
    const time = fakeRealTime();
    let resumedPaused: boolean | undefined;
    const backoff: CrashBackoff = new CrashBackoff({ onError: () => undefined, onResume: () => (resumedPaused = backoff.paused), time });
    backoff.crashed(new Error('full'));
    time.fire(); // libuv may fire a timer a little early
    expect(resumedPaused).toBe(false);
  });

  it('close cancels the resume', () => {
    const time = fakeRealTime();
    let resumed = false;
    const backoff = new CrashBackoff({ onError: () => undefined, onResume: () => (resumed = true), time });
    backoff.crashed(new Error('full'));
    backoff.close();
    time.advance(CRASH_BACKOFF_MAX_MS);
    expect(resumed).toBe(false);
  });
});

const stores: SqliteStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

describe('the dispatcher on a full disk', () => {
  it('a delivery whose attempt could not be recorded goes again once the back-off ends, even when its timer fires early', async () => {
    const store = openStore(':memory:', (err) => {
      throw err;
    });
    stores.push(store);
    const clock = fakeClock();
    const time = fakeRealTime();
    const poster = fakePoster();
    let full = false;
    const real = store.deliveries;
    const deliveries: DeliveriesRepo = Object.assign(Object.create(real) as DeliveriesRepo, {
      recordAttempt: (...args: Parameters<DeliveriesRepo['recordAttempt']>) => {
        if (full) throw new Error('SQLITE_FULL: database or disk is full');
        real.recordAttempt(...args);
      },
    });
    const errors: unknown[] = [];
    const dispatcher = new Dispatcher({
      clock,
      deliveries,
      resources: deliveryResources(store.stores.transactions),
      feed: { emit: () => undefined },
      sign: () => 'sig',
      timeZone: 'UTC',
      timeoutMs: 1000,
      onError: (err) => errors.push(err),
      poster,
      time,
    });
    const { seq: _seq, ...row } = delivery({ id: randomUUID(), resource_id: randomUUID(), next_attempt_at: clock.nowMs() });
    real.insert(row);
    dispatcher.nudge();
    await flush();
    expect(poster.waiting).toHaveLength(1);
    full = true;
    poster.waiting[0]!.answer(200);
    await flush();
    expect(errors).toHaveLength(1);
    // the disk has room again; a tick during the back-off starts nothing
    full = false;
    await dispatcher.runDue(clock.nowMs(), false);
    expect(poster.waiting).toHaveLength(1);
    time.fire(); // the resume, before real time reached the back-off's end
    await flush();
    expect(poster.waiting).toHaveLength(2);
    poster.waiting[1]!.answer(200);
    await dispatcher.idle();
    expect(real.byId(row.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });
  it('a follow-up that fails (holding the next delivery behind a retry on a full disk) backs off, and the resume puts that delivery back in order', async () => {
    const store = openStore(':memory:', (err) => {
      throw err;
    });
    stores.push(store);
    const clock = fakeClock();
    const time = fakeRealTime();
    const poster = fakePoster();
    let full = false;
    const real = store.deliveries;
    const deliveries: DeliveriesRepo = Object.assign(Object.create(real) as DeliveriesRepo, {
      postpone: (id: string, atMs: number) => {
        if (full) throw new Error('SQLITE_FULL: database or disk is full');
        real.postpone(id, atMs);
      },
    });
    const errors: unknown[] = [];
    const dispatcher = new Dispatcher({
      clock,
      deliveries,
      resources: deliveryResources(store.stores.transactions),
      feed: { emit: () => undefined },
      sign: () => 'sig',
      timeZone: 'UTC',
      timeoutMs: 1000,
      onError: (err) => errors.push(err),
      poster,
      time,
    });
    const transactionId = randomUUID();
    const { seq: _a, ...first } = delivery({ id: randomUUID(), resource_id: transactionId, next_attempt_at: clock.nowMs() });
    const { seq: _b, ...second } = delivery({ id: randomUUID(), resource_id: transactionId, next_attempt_at: clock.nowMs() });
    real.insert(first);
    real.insert(second);
    dispatcher.nudge();
    await flush();
    expect(poster.waiting.map((p) => p.body)).toEqual([first.body]);
    full = true;
    poster.waiting[0]!.answer(500);
    await flush();
    expect(errors).toHaveLength(1);
    full = false;
    time.fire();
    await flush();
    const retryAt = real.byId(first.id)!.next_attempt_at!;
    expect(real.byId(second.id)!.next_attempt_at).toBe(retryAt);
    expect(poster.waiting).toHaveLength(1);
    clock.set(retryAt);
    await dispatcher.runDue(retryAt, false);
    await flush();
    expect(poster.waiting.map((p) => p.body)).toEqual([first.body, first.body]);
    poster.waiting[1]!.answer(200);
    await flush();
    expect(poster.waiting.map((p) => p.body)).toEqual([first.body, first.body, second.body]);
    poster.waiting[2]!.answer(200);
    await dispatcher.idle();
  });
});
