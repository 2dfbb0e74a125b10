/** Queries of the `accounts` table: merchant accounts and their credentials. */
import type { Db } from './database.js';

export type AccountMode = 'direct' | 'checkout';

export interface AccountRow {
  id: string;
  name: string;
  mode: AccountMode;
  api_key: string;
  jwt_kid: string;
  jwt_private_key_pem: string;
  jwt_public_key_pem: string;
  created_at: number;
}

export interface AccountsStore {
  insert(row: AccountRow): void;
  byId(id: string): AccountRow | undefined;
  byApiKey(key: string): AccountRow | undefined;
  byKid(kid: string): AccountRow | undefined;
  all(): AccountRow[];
}

export function accountsStore(db: Db): AccountsStore {
  const cols = 'id, name, mode, api_key, jwt_kid, jwt_private_key_pem, jwt_public_key_pem, created_at';
  const insert = db.prepare(
    `INSERT INTO accounts (${cols}) VALUES (@id, @name, @mode, @api_key, @jwt_kid, @jwt_private_key_pem, @jwt_public_key_pem, @created_at)`,
  );
  const byId = db.prepare(`SELECT ${cols} FROM accounts WHERE id = ?`);
  const byApiKey = db.prepare(`SELECT ${cols} FROM accounts WHERE api_key = ?`);
  const byKid = db.prepare(`SELECT ${cols} FROM accounts WHERE jwt_kid = ?`);
  const all = db.prepare(`SELECT ${cols} FROM accounts ORDER BY seq`);
  // Every /v4 call looks its key up; accounts are only ever added, so a found one stays valid.
  const byKey = new Map<string, AccountRow>();
  return {
    insert: (row) => void insert.run(row),
    byId: (id) => byId.get(id) as AccountRow | undefined,
    byApiKey: (key) => {
      let row = byKey.get(key);
      if (!row) {
        row = byApiKey.get(key) as AccountRow | undefined;
        if (row) byKey.set(key, row);
      }
      return row;
    },
    byKid: (kid) => byKid.get(kid) as AccountRow | undefined,
    all: () => all.all() as AccountRow[],
  };
}
