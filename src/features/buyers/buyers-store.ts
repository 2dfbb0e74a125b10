/**
 * The `buyers` table (`ports.ts` → `BuyersRepo`), with the borrowed API's filters:
 * `search` (display_name or external_identifier contains it, ignoring letter case) and
 * `external_identifier` (exactly). Each combination of filters has its own keyset pager.
 */
import type { Buyer } from './entities.js';
import type { BuyerFilters, BuyersRepo } from './ports.js';
import type { Db } from '../../core/db/database.js';
import { keysetPage } from '../../core/db/keyset.js';

const SEARCH =
  "(instr(lower(coalesce(display_name, '')), lower(@search)) > 0 OR instr(lower(coalesce(external_identifier, '')), lower(@search)) > 0)";
const EXTERNAL_IDENTIFIER = 'external_identifier = @external_identifier';

export function buyersStore(db: Db): BuyersRepo {
  const insert = db.prepare(
    'INSERT INTO buyers (id, account_id, display_name, external_identifier, created_at, updated_at) VALUES (@id, @account_id, @display_name, @external_identifier, @created_at, @updated_at)',
  );
  const count = db.prepare('SELECT count(*) AS n FROM buyers WHERE account_id = ?');
  const pager = (where: string) => keysetPage<Buyer>(db, 'buyers', `account_id = @scope${where}`, (row) => row);
  const all = pager('');
  const searched = pager(` AND ${SEARCH}`);
  const identified = pager(` AND ${EXTERNAL_IDENTIFIER}`);
  const both = pager(` AND ${SEARCH} AND ${EXTERNAL_IDENTIFIER}`);
  return {
    insert: (row) => void insert.run(row),
    page: (accountId, req, filters: BuyerFilters = {}) => {
      const { search, external_identifier } = filters;
      if (search !== undefined && external_identifier !== undefined) return both(accountId, req, { search, external_identifier });
      if (search !== undefined) return searched(accountId, req, { search });
      if (external_identifier !== undefined) return identified(accountId, req, { external_identifier });
      return all(accountId, req);
    },
    count: (accountId) => (count.get(accountId) as { n: number }).n,
  };
}
