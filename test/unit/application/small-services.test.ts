/** The change feed, the stored state and the public address, on fakes. */
import { describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../../src/core/domain/change-feed.js';
import { createPublicAddress } from '../../../src/core/http/public-address.js';
import { createStoredState } from '../../../src/core/db/stored-state.js';
import type { SandboxEvent } from '../../../src/core/domain/events.js';
import { fakeUnitOfWork } from '../../support/fakes.js';

describe('createChangeFeed', () => {
  it('publishes after the commit, stamped with the sandbox time when emitted; nothing for work that rolls back', () => {
    const published: SandboxEvent[] = [];
    const uow = fakeUnitOfWork();
    let now = Date.UTC(2026, 0, 1);
    const feed = createChangeFeed({ events: { listened: true, emit: (e) => void published.push(e) }, uow, nowMs: () => now });
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
      events: { listened: false, emit: (e) => void published.push(e) },
      uow: { afterCommit: () => void (queued += 1) },
      nowMs: () => 0,
    });
    feed.emit('sandbox.reset', null, {});
    expect([published.length, queued]).toEqual([0, 0]);
  });
});

describe('createStoredState', () => {
  it('remembers applied fixtures documents by hash, stamped with the sandbox time, and hands the snapshot through', async () => {
    const meta = new Map<string, string>();
    const bytes = Buffer.from('SQLite format 3');
    const state = createStoredState({
      snapshot: async () => bytes,
      meta: { get: (k) => meta.get(k), set: (k, v) => void meta.set(k, v) },
      nowMs: () => Date.UTC(2026, 0, 2),
    });
    expect(state.appliedFixtures.has('abc')).toBe(false);
    state.appliedFixtures.add('abc');
    expect(state.appliedFixtures.has('abc')).toBe(true);
    expect([...meta]).toEqual([['fixtures_applied:abc', '2026-01-02T00:00:00.000+00:00']]);
    expect(await state.snapshot()).toBe(bytes);
  });
});

describe('createPublicAddress', () => {
  it('knows its own port only once the URL has one, and follows the URL the server sets', () => {
    const hosts = new Set(['127.0.0.1', 'localhost']);
    const address = createPublicAddress('http://127.0.0.1:0', hosts);
    expect(address.own()).toBeUndefined();
    address.url = 'http://127.0.0.1:41234';
    expect(address.url).toBe('http://127.0.0.1:41234');
    expect(address.own()).toEqual({ port: 41234, hosts });
    expect(createPublicAddress('https://pay.example.test', hosts).own()).toBeUndefined();
  });
});
