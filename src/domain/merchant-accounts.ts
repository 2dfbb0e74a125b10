/**
 * The merchant accounts of a sandbox: the demo accounts on every start, further isolated
 * accounts on request, each with its seeded buyers, in one unit of work.
 */
import { credentialsOf, ensureDemoAccounts, newAccount, type AccountCredentials } from './accounts.js';
import { seedBuyers } from './buyers.js';
import type { Clock } from './clock.js';
import type { AccountMode } from './entities.js';
import type { AccountsRepo, BuyersRepo, ChangeFeed, UnitOfWork } from './ports.js';

export interface MerchantAccountsDeps {
  clock: Clock;
  uow: UnitOfWork;
  accounts: AccountsRepo;
  buyers: BuyersRepo;
  feed: ChangeFeed;
  /** `--seed` of the buyers' fake data. */
  seed: number;
}

export interface MerchantAccounts {
  /** Inserts the demo accounts that are missing, with their buyers. */
  ensureDemo(): void;
  /** A new isolated account with fresh credentials (key generation may take a moment). */
  create(mode: AccountMode, name?: string): Promise<AccountCredentials>;
  /** Seeds every account's buyers again (after a reset). */
  reseedBuyers(): void;
}

export function createMerchantAccounts(deps: MerchantAccountsDeps): MerchantAccounts {
  const { clock, uow, accounts, buyers, feed, seed } = deps;
  return {
    ensureDemo() {
      uow.run(() => {
        for (const id of ensureDemoAccounts(accounts, clock.nowMs())) seedBuyers(buyers, id, seed, clock.nowMs());
      });
    },
    async create(mode, name) {
      const account = await newAccount(mode, name, clock.nowMs());
      uow.run(() => {
        accounts.insert(account);
        seedBuyers(buyers, account.id, seed, clock.nowMs());
        feed.emit('account.created', account.id, { id: account.id });
      });
      return credentialsOf(account);
    },
    reseedBuyers() {
      uow.run(() => {
        for (const account of accounts.all()) seedBuyers(buyers, account.id, seed, clock.nowMs());
      });
    },
  };
}
