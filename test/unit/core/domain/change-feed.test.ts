/** The change feed, on fakes. */
import { describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../../../src/core/domain/change-feed.js';
import { SandboxEvents, type SandboxEvent } from '../../../../src/core/domain/events.js';
import { fakeUnitOfWork } from '../../../support/fakes.js';

describe('createChangeFeed', () => {
  it('publishes after the commit, stamped with the sandbox time when emitted; nothing for work that rolls back', () => {
    const published: SandboxEvent[] = [];
    const uow = fakeUnitOfWork();
    let now = Date.UTC(2026, 0, 1);
    const feed = createChangeFeed({ events: { listens: () => true, emit: (e) => void published.push(e) }, uow, nowMs: () => now });
    uow.run(() => {
      feed.emit('transaction.created', 'acc_a', { id: 'tx_1' });
      now += 1000;
      expect(published).toEqual([]);
    });
    expect(published).toEqual([
      { type: 'transaction.created', account_id: 'acc_a', data: { id: 'tx_1' }, at: '2026-01-01T00:00:00.000+00:00' },
    ]);
    expect(() =>
      uow.run(() => {
        feed.emit('transaction.updated', 'acc_a', {});
        throw new Error('rolled back');
      }),
    ).toThrow();
    expect(published).toHaveLength(1);
  });

  it('costs nothing while nobody listens: no event, no effect queued', () => {
    const published: SandboxEvent[] = [];
    let queued = 0;
    const feed = createChangeFeed({
      events: { listens: () => false, emit: (e) => void published.push(e) },
      uow: { afterCommit: () => void (queued += 1) },
      nowMs: () => 0,
    });
    feed.emit('sandbox.reset', null, {});
    expect([published.length, queued]).toEqual([0, 0]);
  });
});

describe('SandboxEvents', () => {
  it('listens to a type only while a subscriber wants it: the terminal without --log asks for no request', () => {
    const events = new SandboxEvents();
    const heard: string[] = [];
    const stop = events.subscribeTo(['delivery.attempted'], (e) => void heard.push(e.type));
    expect([events.listens('delivery.attempted'), events.listens('request.logged')]).toEqual([true, false]);
    events.emit({ type: 'delivery.attempted', account_id: null, data: {}, at: '' });
    events.emit({ type: 'request.logged', account_id: null, data: {}, at: '' });
    expect(heard).toEqual(['delivery.attempted']);
    const all = events.subscribe(() => {});
    expect(events.listens('request.logged')).toBe(true);
    all();
    stop();
    expect([events.listened, events.listens('delivery.attempted')]).toEqual([false, false]);
  });
});
