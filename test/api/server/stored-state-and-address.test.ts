/** The stored state as a whole, and the sandbox's own address, on a composed sandbox. */
import { describe, expect, it } from 'vitest';
import { testApp } from '../../support/app.js';

describe('stored state', () => {
  it('remembers applied fixtures documents by hash, stamped with the sandbox time, and snapshots the database', async () => {
    const { core, features, db } = testApp();
    expect(features.fixtures.applied.has('abc')).toBe(false);
    core.atomically(() => features.fixtures.applied.add('abc'));
    expect(features.fixtures.applied.has('abc')).toBe(true);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'fixtures_applied:abc'").get() as { value: string };
    expect(Date.parse(row.value)).toBeCloseTo(core.clock.nowMs(), -4);
    expect((await core.snapshot()).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});

describe('the sandbox address', () => {
  it('knows its own port only once the URL has one, and follows the URL the server sets', () => {
    const { core } = testApp({ port: 0 });
    expect(core.webhookTargetRefused('http://127.0.0.1:41234/hook')).toBeNull();
    core.baseUrl = 'http://127.0.0.1:41234';
    expect(core.baseUrl).toBe('http://127.0.0.1:41234');
    expect(core.webhookTargetRefused('http://127.0.0.1:41234/hook')).toMatch(/own|itself/i);
    expect(core.webhookTargetRefused('http://127.0.0.1:41235/hook')).toBeNull();
  });
});
