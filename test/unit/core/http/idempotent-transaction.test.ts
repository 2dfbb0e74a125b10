/**
 * A keyed create without `--latency` is one transaction: the key's lookup, the create, its
 * record (and its log entry) between one BEGIN and one COMMIT, so no autocommit read comes
 * before it. Replays and refusals of a used key are answered from the lookup made there.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccountIdentity } from '../../../../src/core/auth/account.js';
import type { ApiEnv } from '../../../../src/core/http/env.js';
import { errorHandler } from '../../../../src/core/http/errors.js';
import { idempotency } from '../../../../src/core/http/idempotency.js';
import type { IdempotencyRecord, IdempotencyRepo } from '../../../../src/core/http/ports.js';
import { fakeClock } from '../../../support/fakes.js';

const ACCOUNT = { id: 'acc_1', mode: 'direct' } as AccountIdentity;

describe('idempotent: a keyed create is one transaction', () => {
  it('looks its key up inside the unit of work that creates and records it; replays and refusals read the same lookup', async () => {
    const calls: string[] = [];
    let depth = 0;
    const kept = new Map<string, IdempotencyRecord>();
    const seen = (name: string) => calls.push(`${name}${depth > 0 ? ' in unit' : ''}`);
    const records: IdempotencyRepo = {
      get: (_account, key) => (seen('get'), kept.get(key)),
      claim: () => seen('claim'),
      complete: () => seen('complete'),
      release: () => seen('release'),
      record: (account_id, key, fingerprint, created_at, response_status, response_body) => {
        seen('record');
        kept.set(key, { account_id, key, fingerprint, state: 'done', response_status, response_body, created_at });
      },
      deleteExpired: () => 0,
      hasKeys: () => kept.size > 0,
    };
    const atomically = <T>(work: () => T): T => {
      calls.push('BEGIN');
      depth++;
      try {
        return work();
      } finally {
        depth--;
        calls.push('COMMIT');
      }
    };
    const idempotent = idempotency({ records, clock: fakeClock(), atomically });
    const app = new Hono<ApiEnv>();
    app.onError(errorHandler({ error: () => undefined }));
    let created = 0;
    app.post('/v4/things', (c) => {
      c.set('account', ACCOUNT);
      c.set('body', { n: c.req.header('x-n') });
      return idempotent(c, 201, () => ({ id: ++created }));
    });
    const post = (n: string) => app.request('/v4/things', { method: 'POST', headers: { 'idempotency-key': 'k1', 'x-n': n } });

    const first = await post('1');
    expect(first.status).toBe(201);
    expect(calls.splice(0)).toEqual(['BEGIN', 'get in unit', 'record in unit', 'COMMIT']);
    const replay = await post('1');
    expect([replay.status, replay.headers.get('idempotent-replayed'), await replay.json()]).toEqual([201, 'true', { id: 1 }]);
    expect(calls.splice(0)).toEqual(['BEGIN', 'get in unit', 'COMMIT']);
    const reused = await post('2');
    expect(reused.status).toBe(400);
    expect(calls.splice(0)).toEqual(['BEGIN', 'get in unit', 'COMMIT']);
    expect(created).toBe(1);
  });
});
