/**
 * Restricted API keys in the control API (sandbox extension; contract: "Restricted keys"):
 * `POST /_sandbox/accounts/{account_id}/api-keys` mints an `sk_test_` key limited to the
 * scopes given (its secret in this answer only), `GET` lists the account's keys (redacted),
 * `DELETE .../api-keys/{key_id}` revokes one. Mounted by the app under /_sandbox.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { redactedSecret, MAX_KEYS_PER_ACCOUNT, type ApiKey } from '../../domain/api-keys.js';
import { isoTimestamp } from '../../domain/clock.js';
import { SCOPES } from '../auth.js';
import type { AppEnv } from '../env.js';
import { controlOperation } from '../openapi/document.js';
import { createRouter } from '../router.js';
import { errorSchema } from '../schemas.js';

const scopeSchema = z.enum(SCOPES).openapi('ApiKeyScope', { description: 'A scope of the API; each /v4 operation needs one (README "Restricted keys").' });

export const apiKeyCreateSchema = z
  .object({
    scopes: z
      .array(scopeSchema)
      .min(1)
      .max(SCOPES.length * 4)
      .openapi({ description: 'What the key may do; at least one. Duplicates are ignored.', example: ['transactions.read', 'refunds.write'] }),
    name: z.string().min(1).max(100).optional().openapi({ description: 'A label for the key (shown in lists).', example: 'reporting job' }),
  })
  .openapi('ApiKeyCreate');

export const apiKeySchema = z
  .object({
    id: z.string().openapi({ description: 'The key id (for revoking it).' }),
    object: z.literal('api_key'),
    account_id: z.string(),
    name: z.string().nullable(),
    scopes: z.array(scopeSchema),
    redacted_secret: z.string().openapi({ description: 'The secret with all but its last four characters hidden.', example: 'sk_test_rk_…9f3a' }),
    created_at: z.string().openapi({ description: 'ISO 8601, sandbox clock.' }),
  })
  .openapi('ApiKey');

export const mintedApiKeySchema = apiKeySchema
  .extend({ secret: z.string().openapi({ description: 'The bearer token. Shown in this answer only: it is not stored and no call shows it again.', example: 'sk_test_rk_4c1d…' }) })
  .openapi('MintedApiKey');

const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) }).openapi('ApiKeyList');

export type ApiKeyView = z.infer<typeof apiKeySchema>;

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

const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const accountParam = z.object({ account_id: z.string().min(1).max(100).openapi({ param: { name: 'account_id', in: 'path' }, example: 'acc_demo_direct' }) });
const keyParams = accountParam.extend({ key_id: z.string().min(1).max(100).openapi({ param: { name: 'key_id', in: 'path' } }) });

/** The /_sandbox routes of restricted keys. */
export function apiKeyControlRoutes(): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/accounts/{account_id}/api-keys',
      ...controlOperation,
      operationId: 'createApiKey',
      summary: 'Mint a restricted sk_test_ key of an account, limited to the scopes given',
      description: `The answer carries the secret once; it is not stored (only its SHA-256). An operation outside the key's scopes is 403 forbidden naming the missing scope. At most ${MAX_KEYS_PER_ACCOUNT} keys per account.`,
      request: { params: accountParam, body: { required: true, content: { 'application/json': { schema: apiKeyCreateSchema } } } },
      responses: {
        201: json(mintedApiKeySchema, 'Minted: the secret is shown this once'),
        400: json(errorSchema, 'Bad request (missing, empty or unknown scopes)'),
        404: json(errorSchema, 'No such account'),
        409: json(errorSchema, 'limit_reached: the account holds the most keys allowed'),
      },
    }),
    (c) => {
      const { account_id: accountId } = c.req.valid('param');
      const { scopes, name } = c.req.valid('json');
      const { key, secret } = c.get('sandbox').apiKeys.create(accountId, scopes, name);
      return c.json({ ...apiKeyView(key), secret }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{account_id}/api-keys',
      ...controlOperation,
      operationId: 'listApiKeys',
      summary: "An account's restricted keys, oldest first (secrets redacted)",
      request: { params: accountParam },
      responses: { 200: json(apiKeyListSchema, 'The keys'), 404: json(errorSchema, 'No such account') },
    }),
    (c) => c.json({ items: c.get('sandbox').apiKeys.list(c.req.valid('param').account_id).map(apiKeyView) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/accounts/{account_id}/api-keys/{key_id}',
      ...controlOperation,
      operationId: 'revokeApiKey',
      summary: 'Revoke a restricted key: its secret is a 401 from now on',
      request: { params: keyParams },
      responses: { 200: json(apiKeySchema, 'The revoked key'), 404: json(errorSchema, 'No such account or key') },
    }),
    (c) => {
      const { account_id: accountId, key_id: keyId } = c.req.valid('param');
      return c.json(apiKeyView(c.get('sandbox').apiKeys.revoke(accountId, keyId)), 200);
    },
  );

  return app;
}
