/**
 * The async RSA signer keeps at most `threads` signatures on the thread pool at once (more
 * signing threads than free cores stalled the event loop); the rest wait in order, and a
 * failed signature frees its place. The pool is Node's own `crypto.sign`, counted through the
 * signer's seam (no module mock, so the unit tier can share one module graph).
 */
import { sign as cryptoSign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM } from '../../../../src/core/credentials/demo-credentials.js';
import { createAsyncSigner, createSigner, SIGNING_THREADS, type SignWithCallback } from '../../../../src/core/webhooks/signing.js';

const rsa = { mode: 'rsa' as const, privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM };

/** Node's signer on the thread pool, counting the signatures under way; `fail` bodies reject. */
function countingPool() {
  const pool = { running: 0, most: 0, fail: new Set<string>() };
  const sign: SignWithCallback = (algorithm, data, key, callback) => {
    pool.running += 1;
    pool.most = Math.max(pool.most, pool.running);
    cryptoSign(algorithm, data, key, (err, signature) => {
      pool.running -= 1;
      callback(pool.fail.has(data.toString('utf8')) ? new Error('signing failed') : err, signature);
    });
  };
  return { pool, sign };
}

describe('createAsyncSigner, bounded', () => {
  it('has at most `threads` signatures under way, reaches that many, and answers each with its own signature', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => `{"n":${i}}`);
    for (const threads of [1, 3]) {
      const { pool, sign } = countingPool();
      const signed = await Promise.all(bodies.map(createAsyncSigner(rsa, threads, sign)));
      expect(pool.most).toBe(threads);
      expect(signed).toEqual(bodies.map(createSigner(rsa)));
    }
    expect(SIGNING_THREADS).toBeGreaterThanOrEqual(1);
  });

  it('a signature that fails rejects alone and frees its place', async () => {
    const { pool, sign: signOnPool } = countingPool();
    pool.fail.add('{"n":"bad"}');
    const sign = createAsyncSigner(rsa, 1, signOnPool);
    const outcomes = await Promise.allSettled(['{"n":"bad"}', '{"n":1}', '{"n":2}'].map(sign));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(pool.running).toBe(0);
  });
});
