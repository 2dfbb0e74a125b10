/** The `api_keys` table: restricted API keys (`api-keys.ts` → `ApiKeysRepo`); `scopes` is JSON text. */
import type { ApiKey, ApiKeysRepo } from './api-keys.js';
import type { Db } from '../db/database.js';
import { ReadCache } from '../db/read-cache.js';

interface ApiKeyRow extends Omit<ApiKey, 'scopes'> {
  scopes: string;
}

const toKey = (row: ApiKeyRow): ApiKey => ({ ...row, scopes: JSON.parse(row.scopes) as string[] });

export function apiKeysStore(db: Db): ApiKeysRepo {
  const cols = 'id, account_id, name, scopes, secret_hash, secret_last4, created_at';
  const insert = db.prepare(
    `INSERT INTO api_keys (${cols}) VALUES (@id, @account_id, @name, @scopes, @secret_hash, @secret_last4, @created_at)`,
  );
  const forAccount = db.prepare<[string], ApiKeyRow>(`SELECT ${cols} FROM api_keys WHERE account_id = ? ORDER BY seq`);
  const bySecretHash = db.prepare<[string], ApiKeyRow>(`SELECT ${cols} FROM api_keys WHERE secret_hash = ?`);
  const byId = db.prepare<[string, string], ApiKeyRow>(`SELECT ${cols} FROM api_keys WHERE account_id = ? AND id = ?`);
  const remove = db.prepare('DELETE FROM api_keys WHERE account_id = ? AND id = ?');
  // Every /v4 call made with a restricted key looks it up by its secret's hash: a committed key
  // is kept, and every key kept is forgotten before any key is removed (revoking is rare).
  const bySecret = new ReadCache<ApiKey>(db);
  return {
    insert: (key) => void insert.run({ ...key, scopes: JSON.stringify(key.scopes) }),
    forAccount: (accountId) => forAccount.all(accountId).map(toKey),
    bySecretHash: (hash) => {
      const kept = bySecret.get(hash);
      if (kept !== undefined) return kept;
      const row = bySecretHash.get(hash);
      return row ? bySecret.remember(hash, toKey(row)) : undefined;
    },
    byId: (accountId, id) => {
      const row = byId.get(accountId, id);
      return row ? toKey(row) : undefined;
    },
    remove: (accountId, id) => {
      bySecret.clear();
      return remove.run(accountId, id).changes > 0;
    },
  };
}
