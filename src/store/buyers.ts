/** The `buyers` table (`domain/ports.ts` → `BuyersRepo`). */
import type { Buyer } from '../domain/entities.js';
import type { BuyersRepo } from '../domain/ports.js';
import type { Db } from './database.js';
import { keysetPage } from './keyset.js';

export function buyersStore(db: Db): BuyersRepo {
  const insert = db.prepare(
    'INSERT INTO buyers (id, account_id, display_name, external_identifier, created_at, updated_at) VALUES (@id, @account_id, @display_name, @external_identifier, @created_at, @updated_at)',
  );
  const count = db.prepare('SELECT count(*) AS n FROM buyers WHERE account_id = ?');
  const page = keysetPage<Buyer>(db, 'buyers', 'account_id = @scope', (row) => row);
  return {
    insert: (row) => void insert.run(row),
    page: (accountId, req) => page(accountId, req),
    count: (accountId) => (count.get(accountId) as { n: number }).n,
  };
}
