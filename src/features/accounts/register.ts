/** Mounts the control routes of merchant accounts and their restricted API keys. */
import type { RouteContext } from '../../core/http/route-context.js';
import { accountControlRoutes } from './control/accounts.index.js';
import { apiKeyControlRoutes } from './control/api-keys.index.js';
import { accountSettingsRoutes } from './control/account-settings.js';
import type { AccountLoadSettings } from './load-settings.js';
import type { MerchantAccounts } from './merchant-accounts.js';
import type { AccountQueries } from './ports.js';

/** The services accounts and keys use. */
export interface AccountFeatureServices {
  accounts: Pick<MerchantAccounts, 'create'>;
  /** Each account's rate limit and latency (the load rehearsal). */
  loadSettings: AccountLoadSettings;
  /** The accounts' records. */
  queries: AccountQueries;
}

export function register(ctx: RouteContext, { accounts, loadSettings, queries }: AccountFeatureServices): void {
  const { apiKeys, webhookPublicKeyPem } = ctx.core;
  ctx.control.route(
    '/',
    accountControlRoutes({
      accounts: queries,
      merchantAccounts: accounts,
      webhookPublicKeyPem,
      notificationUrl: ctx.core.options.notificationUrl,
    }),
  );
  ctx.control.route('/', apiKeyControlRoutes({ apiKeys }));
  ctx.control.route(
    '/',
    accountSettingsRoutes({
      accounts: queries,
      loadSettings,
      emit: (type, accountId, data) => ctx.core.emit(type, accountId, data),
    }),
  );
}
