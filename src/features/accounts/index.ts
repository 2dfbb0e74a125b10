/** The accounts feature: what other parts of the sandbox may use of it. */
export { accountsStore } from './accounts-store.js';
export { credentialsOf } from './accounts.js';
export { accountControlRoutes } from './control/accounts.index.js';
export { apiKeyControlRoutes } from './control/api-keys.index.js';
export type { MerchantAccounts } from './merchant-accounts.js';
export { credentialsSchema } from './control/accounts.schemas.js';
export type { AccountCredentials, Credentials } from './control/accounts.schemas.js';
export type { ApiKeyView, MintedApiKeyView } from './control/api-keys.routes.js';
export { createAccountsFeature } from './compose.js';
export type { AccountsFeature } from './compose.js';
export type { Account } from './entities.js';
export type { AccountQueries, AccountsRepo } from './ports.js';
export { accountsMigrations } from './migrations.js';
