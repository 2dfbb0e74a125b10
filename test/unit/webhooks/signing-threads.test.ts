/**
 * The async RSA signer keeps at most `threads` signatures on the thread pool at once (more
 * signing threads than free cores stalled the event loop); the rest wait in order, and a
 * failed signature frees its place.
 */
import type * as Crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM } from '../../../src/domain/demo-credentials.js';

const pool = vi.hoisted(() => ({ running: 0, most: 0, fail: new Set<string>() }));

vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  const sign = (...args: unknown[]): unknown => {
    const callback = args[3] as ((err: Error | null, signature: Buffer) => void) | undefined;
    if (typeof callback !== 'function') return (real.sign as (...a: unknown[]) => unknown)(...args);
    pool.running += 1;
    pool.most = Math.max(pool.most, pool.running);
    const data = String(args[1]);
    (real.sign as (...a: unknown[]) => unknown)(args[0], args[1], args[2], (err: Error | null, signature: Buffer) => {
      pool.running -= 1;
      callback(pool.fail.has(data) ? new Error('signing failed') : err, signature);
    });
    return undefined;
  };
  return { ...real, sign, default: { ...real, sign } };
});

const { createAsyncSigner, createSigner, SIGNING_THREADS } = await import('../../../src/webhooks/signing.js');
const rsa = { mode: 'rsa' as const, privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM };

describe('createAsyncSigner, bounded', () => {
  it('has at most `threads` signatures under way, reaches that many, and answers each with its own signature', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => `{"n":${i}}`);
    for (const threads of [1, 3]) {
      pool.most = 0;
      const signed = await Promise.all(bodies.map(createAsyncSigner(rsa, threads)));
      expect(pool.most).toBe(threads);
      expect(signed).toEqual(bodies.map(createSigner(rsa)));
    }
    expect(SIGNING_THREADS).toBeGreaterThanOrEqual(1);
  });

  it('a signature that fails rejects alone and frees its place', async () => {
    pool.fail.add('{"n":"bad"}');
    const sign = createAsyncSigner(rsa, 1);
    const outcomes = await Promise.allSettled(['{"n":"bad"}', '{"n":1}', '{"n":2}'].map(sign));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(pool.running).toBe(0);
  });
});
