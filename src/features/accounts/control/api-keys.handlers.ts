/** Handlers of restricted API keys; the service decides the 404s and the key limit. */
import { redactedSecret, type ApiKey, type ApiKeyService } from '../../../core/auth/api-keys.js';
import { isoTimestamp } from '../../../core/clock/clock.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { ApiKeyView, CreateRoute, ListRoute, RevokeRoute } from './api-keys.routes.js';

function apiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    object: 'api_key',
    account_id: key.account_id,
    name: key.name,
    scopes: key.scopes as ApiKeyView['scopes'],
    redacted_secret: redactedSecret(key),
    created_at: isoTimestamp(key.created_at),
  };
}

/** What the key routes use. */
export interface ApiKeyControlDeps {
  apiKeys: Pick<ApiKeyService, 'create' | 'list' | 'revoke'>;
}

export function apiKeyHandlers({ apiKeys }: ApiKeyControlDeps) {
  const create: ControlHandler<CreateRoute> = (c) => {
    const { account_id: accountId } = c.req.valid('param');
    const { scopes, name } = c.req.valid('json');
    const { key, secret } = apiKeys.create(accountId, scopes, name);
    return c.json({ ...apiKeyView(key), secret }, 201);
  };

  const list: ControlHandler<ListRoute> = (c) => c.json({ items: apiKeys.list(c.req.valid('param').account_id).map(apiKeyView) }, 200);

  const revoke: ControlHandler<RevokeRoute> = (c) => {
    const { account_id: accountId, key_id: keyId } = c.req.valid('param');
    return c.json(apiKeyView(apiKeys.revoke(accountId, keyId)), 200);
  };

  return { create, list, revoke };
}
