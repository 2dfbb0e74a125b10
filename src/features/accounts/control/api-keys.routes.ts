/** Route definitions of restricted API keys (mint, list, revoke), with their schemas. */
import { createRoute, z } from '@hono/zod-openapi';
import { MAX_KEYS_PER_ACCOUNT } from '../../../core/auth/api-keys.js';
import { SCOPES } from '../../../core/http/auth.js';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errorSchema } from '../../../core/http/schemas.js';
import { json } from '../../../core/http/control-route-parts.js';

const scopeSchema = z
  .enum(SCOPES)
  .openapi('ApiKeyScope', { description: 'A scope of the API; each /v4 operation needs one (README "Restricted keys").' });

export const apiKeyCreateSchema = z
  .object({
    scopes: z
      .array(scopeSchema)
      .min(1)
      .max(SCOPES.length * 4)
      .openapi({
        description: 'What the key may do; at least one. Duplicates are ignored.',
        example: ['transactions.read', 'refunds.write'],
      }),
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
    redacted_secret: z
      .string()
      .openapi({ description: 'The secret with all but its last four characters hidden.', example: 'sk_test_rk_…9f3a' }),
    created_at: z.string().openapi({ description: 'ISO 8601, sandbox clock.' }),
  })
  .openapi('ApiKey');

export const mintedApiKeySchema = apiKeySchema
  .extend({
    secret: z.string().openapi({
      description: 'The bearer token. Shown in this answer only: it is not stored and no call shows it again.',
      example: 'sk_test_rk_4c1d…',
    }),
  })
  .openapi('MintedApiKey');

const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) }).openapi('ApiKeyList');

export type ApiKeyView = z.infer<typeof apiKeySchema>;
export type MintedApiKeyView = z.infer<typeof mintedApiKeySchema>;

const accountParam = z.object({
  account_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'account_id', in: 'path' }, example: 'acc_demo_direct' }),
});
const keyParams = accountParam.extend({
  key_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'key_id', in: 'path' } }),
});

export const create = createRoute({
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
});

export const list = createRoute({
  method: 'get',
  path: '/accounts/{account_id}/api-keys',
  ...controlOperation,
  operationId: 'listApiKeys',
  summary: "An account's restricted keys, oldest first (secrets redacted)",
  request: { params: accountParam },
  responses: { 200: json(apiKeyListSchema, 'The keys'), 404: json(errorSchema, 'No such account') },
});

export const revoke = createRoute({
  method: 'delete',
  path: '/accounts/{account_id}/api-keys/{key_id}',
  ...controlOperation,
  operationId: 'revokeApiKey',
  summary: 'Revoke a restricted key: its secret is a 401 from now on',
  request: { params: keyParams },
  responses: { 200: json(apiKeySchema, 'The revoked key'), 404: json(errorSchema, 'No such account or key') },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type RevokeRoute = typeof revoke;
