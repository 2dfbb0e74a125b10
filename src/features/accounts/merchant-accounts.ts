/**
 * The merchant accounts of a sandbox: the demo accounts on every start, further isolated
 * accounts on request, each with its seeded buyers, in one unit of work.
 *
 * Buyers are seeded lazily: an account's buyers are generated the first time they are read
 * (through `buyers`, the repository the API reads), with the time the account was given them
 * (start-up, creation, reset), so the result is the same as seeding at once, and faker is
 * not loaded until someone lists buyers. Seeds still owed are written on `close()`.
 */
import { KeyPool, credentialsOf, ensureDemoAccounts, newAccount, type AccountCredentials, type KeyPoolLevel } from './accounts.js';
import { newBuyer, type NewBuyer } from '../buyers/index.js';
import { seedBuyers } from '../buyers/index.js';
import type { Clock } from '../../core/clock/clock.js';
import type { AccountMode } from '../../core/auth/account.js';
import type { Buyer, BuyersRepo } from '../buyers/index.js';
import type { AccountsRepo } from './ports.js';
import type { ChangeFeed, UnitOfWork } from '../../core/domain/ports.js';

export interface MerchantAccountsDeps {
  clock: Clock;
  uow: UnitOfWork;
  accounts: AccountsRepo;
  buyers: BuyersRepo;
  feed: ChangeFeed;
  /** `--seed` of the buyers' fake data. */
  seed: number;
  /** `--key-pool`: key pairs made ahead of time once `fillKeyPool()` is called (default 0). */
  keyPool?: number;
}

export interface MerchantAccounts {
  /** Inserts the demo accounts that are missing, with their buyers. */
  ensureDemo(): void;
  /** A new isolated account with fresh credentials (key generation may take a moment). */
  create(mode: AccountMode, name?: string): Promise<AccountCredentials>;
  /** Seeds every account's buyers again (after a reset). */
  reseedBuyers(): void;
  /** A buyer written by hand (a fixture) in `accountId`, created now on the sandbox clock. */
  createBuyer(accountId: string, input: NewBuyer): Omit<Buyer, 'seq'>;
  /** The buyers repository that seeds an account's buyers before its first read. */
  buyers: BuyersRepo;
  /** Writes every buyer seed still owed (before the database closes). */
  seedOwedBuyers(): void;
  /** Starts making account key pairs ahead of time, in the background (the server calls it once listening). */
  fillKeyPool(): void;
  /** Stops making keys ahead of time. */
  stopKeyPool(): void;
  /** How many key pairs wait in the pool, of how many wanted. */
  keyPoolLevel(): KeyPoolLevel;
}

export function createMerchantAccounts(deps: MerchantAccountsDeps): MerchantAccounts {
  const { clock, uow, accounts, buyers, feed, seed } = deps;
  const keys = new KeyPool(deps.keyPool ?? 0);
  /** Accounts whose buyers are owed, with the time they were to be seeded at. */
  const owed = new Map<string, number>();
  const seedIfOwed = (accountId: string): void => {
    const at = owed.get(accountId);
    if (at === undefined) return;
    uow.run(() => seedBuyers(buyers, accountId, seed, at));
    owed.delete(accountId);
  };
  return {
    ensureDemo() {
      uow.run(() => {
        const at = clock.nowMs();
        const owe = (id: string): void => uow.afterCommit(() => owed.set(id, at));
        ensureDemoAccounts(accounts, at);
        // The demo accounts just inserted, and any account left without buyers (a process
        // that ended before seeding them), get them on first read.
        for (const account of accounts.all()) if (buyers.count(account.id) === 0) owe(account.id);
      });
    },
    async create(mode, name) {
      const account = await newAccount(mode, name, clock.nowMs(), keys);
      uow.run(() => {
        accounts.insert(account);
        const at = clock.nowMs();
        uow.afterCommit(() => owed.set(account.id, at));
        feed.emit('account.created', account.id, { id: account.id });
      });
      return credentialsOf(account);
    },
    reseedBuyers() {
      // Inside the reset's unit of work, after the buyers were wiped: owed once it commits.
      uow.run(() => {
        const at = clock.nowMs();
        for (const account of accounts.all()) uow.afterCommit(() => owed.set(account.id, at));
      });
    },
    createBuyer(accountId, input) {
      const buyer = newBuyer(accountId, input, clock.nowMs());
      uow.run(() => buyers.insert(buyer));
      return buyer;
    },
    buyers: {
      insert: (buyer) => buyers.insert(buyer),
      page(accountId, req, filters) {
        seedIfOwed(accountId);
        return buyers.page(accountId, req, filters);
      },
      count(accountId) {
        seedIfOwed(accountId);
        return buyers.count(accountId);
      },
    },
    seedOwedBuyers() {
      for (const accountId of [...owed.keys()]) seedIfOwed(accountId);
    },
    fillKeyPool: () => keys.fill(),
    stopKeyPool: () => keys.stop(),
    keyPoolLevel: () => keys.level(),
  };
}
