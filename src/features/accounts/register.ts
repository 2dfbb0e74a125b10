/** Mounts the control routes of merchant accounts and their restricted API keys. */
import type { ApiKeyService } from '../../core/auth/api-keys.js';
import type { Queries } from '../../core/domain/queries.js';
import type { RouteContext } from '../../core/http/route-context.js';
import { accountControlRoutes } from './control/accounts.index.js';
import { apiKeyControlRoutes } from './control/api-keys.index.js';
import { accountSettingsRoutes } from './control/account-settings.js';
import type { AccountLoadSettings } from './load-settings.js';
import type { MerchantAccounts } from './merchant-accounts.js';

/** The services accounts and keys use. */
export interface AccountFeatureServices {
  queries: Pick<Queries, 'accounts'>;
  accounts: Pick<MerchantAccounts, 'create'>;
  apiKeys: Pick<ApiKeyService, 'create' | 'list' | 'revoke'>;
  webhookPublicKeyPem: string;
  /** Each account's rate limit and latency (the load rehearsal). */
  loadSettings: AccountLoadSettings;
  emit(type: 'account.updated', accountId: string, data: unknown): void;
}

export function register(ctx: RouteContext<AccountFeatureServices>): void {
  const { queries, accounts, apiKeys, webhookPublicKeyPem, loadSettings } = ctx.sandbox;
  ctx.control.route('/', accountControlRoutes({ accounts: queries.accounts, merchantAccounts: accounts, webhookPublicKeyPem }));
  ctx.control.route('/', apiKeyControlRoutes({ apiKeys }));
  ctx.control.route(
    '/',
    accountSettingsRoutes({
      accounts: queries.accounts,
      loadSettings,
      emit: (type, accountId, data) => ctx.sandbox.emit(type, accountId, data),
    }),
  );
}
