/** Handlers of accounts: credentials (with the webhook key in every form) and new isolated accounts. */
import { credentialsOf } from '../accounts.js';
import type { MerchantAccounts } from '../merchant-accounts.js';
import type { AccountQueries } from '../ports.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import { webhookKeyForms } from '../../webhooks/index.js';
import type { CreateRoute, CredentialsRoute } from './accounts.routes.js';

/** What the account routes use. */
export interface AccountControlDeps {
  accounts: Pick<AccountQueries, 'all'>;
  merchantAccounts: Pick<MerchantAccounts, 'create'>;
  webhookPublicKeyPem: string;
  /** The default webhook target (`--notification-url`), if any. */
  notificationUrl: string | undefined;
}

export function accountHandlers(deps: AccountControlDeps) {
  const credentials: ControlHandler<CredentialsRoute> = async (c) =>
    c.json(
      {
        accounts: deps.accounts.all().map(credentialsOf),
        webhook_public_key_pem: deps.webhookPublicKeyPem,
        webhook_public_key: await webhookKeyForms(),
        notification_url: deps.notificationUrl ?? null,
      },
      200,
    );

  const create: ControlHandler<CreateRoute> = async (c) => {
    const { mode, name } = c.req.valid('json');
    return c.json(await deps.merchantAccounts.create(mode, name), 201);
  };

  return { credentials, create };
}
