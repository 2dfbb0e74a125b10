/** Queries of the `idempotency_keys` table (spec: Idempotency rules). */
import type { Db } from './database.js';

export interface IdempotencyRow {
  account_id: string;
  key: string;
  fingerprint: string;
  state: 'processing' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

export interface IdempotencyStore {
  get(accountId: string, key: string): IdempotencyRow | undefined;
  /** Takes the key for a request now starting; replaces an expired row. */
  claim(accountId: string, key: string, fingerprint: string, at: number): void;
  complete(accountId: string, key: string, status: number, body: string): void;
  release(accountId: string, key: string): void;
}

export function idempotencyStore(db: Db): IdempotencyStore {
  const get = db.prepare('SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?');
  const claim = db.prepare(`INSERT INTO idempotency_keys (account_id, key, fingerprint, state, created_at)
    VALUES (?, ?, ?, 'processing', ?)
    ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'processing',
      response_status = NULL, response_body = NULL, created_at = excluded.created_at`);
  const complete = db.prepare(
    "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ? WHERE account_id = ? AND key = ?",
  );
  const release = db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?');
  return {
    get: (accountId, key) => get.get(accountId, key) as IdempotencyRow | undefined,
    claim: (accountId, key, fingerprint, at) => void claim.run(accountId, key, fingerprint, at),
    complete: (accountId, key, status, body) => void complete.run(status, body, accountId, key),
    release: (accountId, key) => void release.run(accountId, key),
  };
}
