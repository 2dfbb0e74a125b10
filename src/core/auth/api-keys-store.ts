/** The `api_keys` table: restricted API keys (`api-keys.ts` → `ApiKeysRepo`); `scopes` is JSON text. */
import type { ApiKey, ApiKeysRepo } from './api-keys.js';
import type { Db } from '../db/database.js';

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
  return {
    insert: (key) => void insert.run({ ...key, scopes: JSON.stringify(key.scopes) }),
    forAccount: (accountId) => forAccount.all(accountId).map(toKey),
    bySecretHash: (hash) => {
      const row = bySecretHash.get(hash);
      return row ? toKey(row) : undefined;
    },
    byId: (accountId, id) => {
      const row = byId.get(accountId, id);
      return row ? toKey(row) : undefined;
    },
    remove: (accountId, id) => remove.run(accountId, id).changes > 0,
  };
}
