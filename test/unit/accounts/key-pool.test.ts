/**
 * The account key pool (`--key-pool`): keys made ahead of time once `fill()` is called, one
 * generation at a time in the background, each key handed out once; when none waits, keys
 * are made on demand up to the parallelism. A fake generator stands in for RSA here (the
 * real keys are checked over a socket in test/e2e/accounts/account-keys.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { KeyPool, type PemKeyPair } from '../../../src/features/accounts/accounts.js';

/** A generator whose calls finish when the test says so; it counts how many run at once. */
function manualGenerator() {
  let made = 0;
  let running = 0;
  let mostAtOnce = 0;
  const pending: { resolve(pair: PemKeyPair): void; reject(err: Error): void }[] = [];
  return {
    generate: (): Promise<PemKeyPair> =>
      new Promise<PemKeyPair>((resolve, reject) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        pending.push({
          resolve: (pair) => {
            running -= 1;
            resolve(pair);
          },
          reject: (err) => {
            running -= 1;
            reject(err);
          },
        });
      }),
    /** Finishes every generation under way; resolves once the pool has seen them. */
    async finishAll(): Promise<number> {
      const now = pending.splice(0);
      for (const p of now) {
        made += 1;
        p.resolve({ privateKey: `private-${made}`, publicKey: `public-${made}` });
      }
      await new Promise((r) => setImmediate(r));
      return now.length;
    },
    async failOne(): Promise<void> {
      pending.shift()?.reject(new Error('no entropy'));
      await new Promise((r) => setImmediate(r));
    },
    get running() {
      return running;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
  };
}

describe('KeyPool', () => {
  it('makes nothing before fill(), then fills to its size one key at a time', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(3, { generate: gen.generate, parallelism: 4 });
    await new Promise((r) => setImmediate(r));
    expect(gen.running).toBe(0);
    expect(pool.level()).toEqual({ size: 3, ready: 0 });
    pool.fill();
    for (let i = 1; i <= 3; i++) {
      expect(gen.running).toBe(1);
      expect(await gen.finishAll()).toBe(1);
      expect(pool.level()).toEqual({ size: 3, ready: i });
    }
    expect(gen.running).toBe(0); // full: no more generations
    expect(gen.mostAtOnce).toBe(1);
  });

  it('hands out each key once and refills after a take', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(2, { generate: gen.generate });
    pool.fill();
    await gen.finishAll();
    await gen.finishAll();
    expect(pool.level().ready).toBe(2);
    const taken = [await pool.take(), await pool.take()];
    expect(new Set(taken.map((k) => k.privateKey)).size).toBe(2);
    expect(pool.level().ready).toBe(0);
    expect(gen.running).toBe(1); // refilling, one at a time
    await gen.finishAll();
    await gen.finishAll();
    expect(pool.level().ready).toBe(2);
    const next = await pool.take();
    expect(taken.map((k) => k.privateKey)).not.toContain(next.privateKey);
  });

  it('makes keys on demand up to the parallelism when none waits, each for one taker', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(0, { generate: gen.generate, parallelism: 3 });
    pool.fill(); // size 0: nothing made ahead
    await new Promise((r) => setImmediate(r));
    expect(gen.running).toBe(0);
    const takes = Array.from({ length: 7 }, () => pool.take());
    expect(gen.running).toBe(3);
    while ((await gen.finishAll()) > 0) expect(gen.running).toBeLessThanOrEqual(3);
    const keys = await Promise.all(takes);
    expect(new Set(keys.map((k) => k.privateKey)).size).toBe(7);
    expect(gen.mostAtOnce).toBe(3);
    expect(pool.level()).toEqual({ size: 0, ready: 0 });
  });

  it('a failed generation fails its taker, and the others still get keys', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(0, { generate: gen.generate, parallelism: 1 });
    const first = pool.take();
    const second = pool.take();
    const firstFails = expect(first).rejects.toThrow('no entropy');
    await gen.failOne();
    await firstFails;
    await gen.finishAll();
    expect((await second).privateKey).toMatch(/^private-/);
  });

  it('stops filling after stop()', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(5, { generate: gen.generate });
    pool.fill();
    pool.stop();
    await gen.finishAll();
    expect(gen.running).toBe(0);
    expect(pool.level().ready).toBe(1);
  });
});
