/** Queries of the `buyers` table. */
import type { Db } from './database.js';
import { keysetPage, type Page, type PageRequest } from './keyset.js';

export interface BuyerRow {
  seq: number;
  id: string;
  account_id: string;
  display_name: string | null;
  external_identifier: string | null;
  created_at: number;
  updated_at: number;
}

export interface BuyersStore {
  insert(row: Omit<BuyerRow, 'seq'>): void;
  page(accountId: string, req: PageRequest): Page<BuyerRow>;
  count(accountId: string): number;
}

export function buyersStore(db: Db): BuyersStore {
  const insert = db.prepare(
    'INSERT INTO buyers (id, account_id, display_name, external_identifier, created_at, updated_at) VALUES (@id, @account_id, @display_name, @external_identifier, @created_at, @updated_at)',
  );
  const count = db.prepare('SELECT count(*) AS n FROM buyers WHERE account_id = ?');
  const page = keysetPage<BuyerRow>(db, 'buyers', 'account_id = @scope');
  return {
    insert: (row) => void insert.run(row),
    page: (accountId, req) => page(accountId, req),
    count: (accountId) => (count.get(accountId) as { n: number }).n,
  };
}
