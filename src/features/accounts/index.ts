/**
 * The accounts feature: merchant accounts and their keys. It builds, from the core, the
 * merchant accounts (the demo accounts present on every start, their buyers, the key pool) and
 * each account's load settings, and mounts its /_sandbox routes (`control.ts`). This file is
 * its public surface too.
 */
import type { CoreParts } from '../../core/core.js';
import { getMeta, setMeta } from '../../core/db/database.js';
import type { Feature } from '../../core/http/route-context.js';
import { accountControlRoutes, accountSettingsRoutes, apiKeyControlRoutes } from './control.js';
import { createAccountLoadSettings, type AccountLoadSettings } from './load-settings.js';
import { createMerchantAccounts, type MerchantAccounts } from './merchant-accounts.js';
import type { AccountQueries, AccountsRepo } from './ports.js';
import type { BuyersRepo } from '../buyers/index.js';

export { accountsStore } from './accounts-store.js';
export { credentialsOf } from './accounts.js';
export type { ApiKeyView, MintedApiKeyView } from './control.js';
export { credentialsSchema } from './control.schemas.js';
export type { AccountCredentials, Credentials } from './control.schemas.js';
export type { MerchantAccounts } from './merchant-accounts.js';
export type { Account } from './entities.js';
export type { AccountQueries, AccountsRepo } from './ports.js';
export { accountsMigrations } from './migrations.js';

/** Where each account's own rate limit and latency are kept. */
const ACCOUNT_LOAD_SETTINGS = 'account_load_settings';

export interface AccountsFeature extends Feature {
  service: MerchantAccounts;
  /** Each account's rate limit and latency (its own, or the options'), for the load rehearsal. */
  loadSettings: AccountLoadSettings;
  /** The accounts' records, read-only. */
  queries: AccountQueries;
}

/** The accounts' storage, and the buyers' (seeded with each account). */
export interface AccountsFeatureDeps {
  store: AccountsRepo;
  buyers: BuyersRepo;
}

export function createAccountsFeature(core: CoreParts, { store, buyers }: AccountsFeatureDeps): AccountsFeature {
  const { options, clock, uow, feed, db } = core;
  const service = createMerchantAccounts({
    clock,
    uow,
    accounts: store,
    buyers,
    feed,
    seed: options.seed,
    keyPool: options.keyPool,
  });
  const loadSettings = createAccountLoadSettings({
    defaults: { rateLimit: options.rateLimit, latency: options.latency },
    webhookCanary: options.webhookCanary,
    accounts: store,
    load: () => getMeta(db, ACCOUNT_LOAD_SETTINGS),
    save: (text) => setMeta(db, ACCOUNT_LOAD_SETTINGS, text),
  });
  service.ensureDemo();
  return {
    service,
    loadSettings,
    queries: store,
    register(ctx) {
      const { apiKeys, webhookPublicKeyPem, options } = ctx.core;
      ctx.control.route(
        '/',
        accountControlRoutes({
          accounts: store,
          merchantAccounts: service,
          webhookPublicKeyPem,
          notificationUrl: options.notificationUrl,
        }),
      );
      ctx.control.route('/', apiKeyControlRoutes({ apiKeys }));
      ctx.control.route(
        '/',
        accountSettingsRoutes({
          accounts: store,
          loadSettings,
          emit: (type, accountId, data) => ctx.core.emit(type, accountId, data),
        }),
      );
    },
  };
}
