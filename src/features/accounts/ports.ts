/** The accounts' storage (`accounts-store.ts` implements it) and its read half. */
import type { Account } from './entities.js';

/** The `accounts` table. */
export interface AccountsRepo {
  insert(account: Account): void;
  byId(id: string): Account | undefined;
  byApiKey(key: string): Account | undefined;
  byKid(kid: string): Account | undefined;
  all(): Account[];
  /** How many accounts there are. */
  count(): number;
}

/** The read half of the accounts' storage. */
export type AccountQueries = Pick<AccountsRepo, 'byId' | 'byApiKey' | 'byKid' | 'all' | 'count'>;
