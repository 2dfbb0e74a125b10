/**
 * The CI's caches (test/support/ci-cache.ts): one entry per key, filled once, never read under
 * another key, and never left half-written.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheEntry, cacheKey, ciCacheRoot } from '../../support/ci-cache.js';

let dir = '';
const saved = { ci: process.env.PAYMENT_SANDBOX_CI_CACHE, xdg: process.env.XDG_CACHE_HOME };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ci-cache-test-'));
  process.env.PAYMENT_SANDBOX_CI_CACHE = join(dir, 'cache');
});
afterEach(() => {
  for (const [name, value] of [
    ['PAYMENT_SANDBOX_CI_CACHE', saved.ci],
    ['XDG_CACHE_HOME', saved.xdg],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the CI cache', () => {
  it('lives in PAYMENT_SANDBOX_CI_CACHE, else payment-sandbox-ci in XDG_CACHE_HOME', () => {
    expect(ciCacheRoot()).toBe(join(dir, 'cache'));
    delete process.env.PAYMENT_SANDBOX_CI_CACHE;
    process.env.XDG_CACHE_HOME = join(dir, 'xdg');
    expect(ciCacheRoot()).toBe(join(dir, 'xdg', 'payment-sandbox-ci'));
  });

  it('keys by every part and its boundaries', () => {
    expect(cacheKey(['a', 'b'])).toBe(cacheKey(['a', Buffer.from('b')]));
    expect(cacheKey(['a', 'b'])).not.toBe(cacheKey(['ab']));
    expect(cacheKey(['a', 'b'])).not.toBe(cacheKey(['a', 'c']));
    expect(cacheKey(['x'])).toMatch(/^[0-9a-f]{32}$/);
  });

  it('fills an entry once per key; another key fills its own', () => {
    let fills = 0;
    const fill = (value: string) => (folder: string) => {
      fills += 1;
      writeFileSync(join(folder, 'value'), value);
    };
    const first = cacheEntry('kind', cacheKey(['v1']), fill('one'));
    expect(first.hit).toBe(false);
    const again = cacheEntry('kind', cacheKey(['v1']), fill('never'));
    expect(again).toEqual({ folder: first.folder, hit: true });
    expect(readFileSync(join(again.folder, 'value'), 'utf8')).toBe('one');
    const other = cacheEntry('kind', cacheKey(['v2']), fill('two'));
    expect(other.hit).toBe(false);
    expect(readFileSync(join(other.folder, 'value'), 'utf8')).toBe('two');
    expect(fills).toBe(2);
  });

  it('keeps nothing of a fill that failed', () => {
    const key = cacheKey(['broken']);
    expect(() =>
      cacheEntry('kind', key, (folder) => {
        writeFileSync(join(folder, 'half'), '...');
        throw new Error('compile failed');
      }),
    ).toThrow('compile failed');
    expect(existsSync(join(ciCacheRoot(), 'kind', key))).toBe(false);
    expect(readdirSync(join(ciCacheRoot(), 'kind'))).toEqual([]);
  });
});
