/** The `idempotency_keys` table (spec: Idempotency rules; `http/ports.ts` → `IdempotencyRepo`, a port of the HTTP layer). */
import type { IdempotencyRecord, IdempotencyRepo } from './ports.js';
import type { Db } from '../db/database.js';
import { accountTimedQuery } from '../db/account-time.js';
import { createAccountClocks, type AccountClocks } from '../clock/account-clocks.js';

/**
 * A key's `created_at` is on its account's clock (`clocks`): it expires on that clock alone. An
 * expiry sweep on one account's clock deletes that account's expired keys; on the sandbox
 * clock, each key is compared on its own account's clock.
 */
export function idempotencyStore(db: Db, clocks: AccountClocks = createAccountClocks()): IdempotencyRepo {
  const get = db.prepare<[string, string], IdempotencyRecord>('SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?');
  const claim = db.prepare(`INSERT INTO idempotency_keys (account_id, key, fingerprint, state, created_at)
    VALUES (?, ?, ?, 'processing', ?)
    ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'processing',
      response_status = NULL, response_body = NULL, created_at = excluded.created_at`);
  const complete = db.prepare(
    "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ? WHERE account_id = ? AND key = ?",
  );
  const release = db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?');
  const record = db.prepare(`INSERT INTO idempotency_keys (account_id, key, fingerprint, state, response_status, response_body, created_at)
    VALUES (?, ?, ?, 'done', ?, ?, ?)
    ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'done',
      response_status = excluded.response_status, response_body = excluded.response_body, created_at = excluded.created_at`);
  const deleteExpired = accountTimedQuery(
    db,
    clocks,
    (q) =>
      `DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE ${q.scope} AND ${q.due('created_at')} <= ? LIMIT ?)`,
  );
  const any = db.prepare('SELECT 1 FROM idempotency_keys LIMIT 1').pluck();
  return {
    hasKeys: () => any.get() !== undefined,
    deleteExpired: (beforeMs, max) => deleteExpired.run(beforeMs, max),
    get: (accountId, key) => get.get(accountId, key),
    claim: (accountId, key, fingerprint, at) => void claim.run(accountId, key, fingerprint, at),
    complete: (accountId, key, status, body) => void complete.run(status, body, accountId, key),
    release: (accountId, key) => void release.run(accountId, key),
    record: (accountId, key, fingerprint, at, status, body) => void record.run(accountId, key, fingerprint, status, body, at),
  };
}
