/** The `accounts` table: merchant accounts and their credentials (`ports.ts` → `AccountsRepo`). */
import type { Account } from './entities.js';
import type { AccountsRepo } from './ports.js';
import type { Db } from '../../core/db/database.js';
import { ReadCache } from '../../core/db/read-cache.js';

export function accountsStore(db: Db): AccountsRepo {
  const cols = 'id, name, mode, api_key, jwt_kid, jwt_private_key_pem, jwt_public_key_pem, created_at';
  const insert = db.prepare(
    `INSERT INTO accounts (${cols}) VALUES (@id, @name, @mode, @api_key, @jwt_kid, @jwt_private_key_pem, @jwt_public_key_pem, @created_at)`,
  );
  const byId = db.prepare<[string], Account>(`SELECT ${cols} FROM accounts WHERE id = ?`);
  const byApiKey = db.prepare<[string], Account>(`SELECT ${cols} FROM accounts WHERE api_key = ?`);
  const byKid = db.prepare<[string], Account>(`SELECT ${cols} FROM accounts WHERE jwt_kid = ?`);
  const all = db.prepare<[], Account>(`SELECT ${cols} FROM accounts ORDER BY seq`);
  const count = db.prepare<[], number>('SELECT count(*) FROM accounts').pluck();
  // Every /v4 call looks its key up; accounts are only ever added, so a found one stays valid.
  const byKey = new Map<string, Account>();
  // Read by every /v4 call made with a restricted key (its account), for the same reason kept once found.
  const byIdKept = new ReadCache<Account>(db);
  return {
    insert: (row) => void insert.run(row),
    byId: (id) => {
      const kept = byIdKept.get(id);
      if (kept !== undefined) return kept;
      // Only a committed account is kept: one a rolled-back transaction inserted must not stay found.
      const row = byId.get(id);
      return row ? byIdKept.remember(id, row) : undefined;
    },
    byApiKey: (key) => {
      let row = byKey.get(key);
      if (!row) {
        row = byApiKey.get(key);
        if (row) byKey.set(key, row);
      }
      return row;
    },
    byKid: (kid) => byKid.get(kid),
    all: () => all.all(),
    count: () => count.get()!,
  };
}
