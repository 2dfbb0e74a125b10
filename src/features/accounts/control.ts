/**
 * The control routes of merchant accounts, their definitions and handlers: every account's
 * credentials (`GET /_sandbox/credentials`) and new isolated accounts (`POST /_sandbox/accounts`);
 * restricted API keys (`POST /_sandbox/accounts/{account_id}/api-keys` mints an `sk_test_` key
 * limited to the scopes given, its secret in that answer only; `GET` lists them redacted;
 * `DELETE .../api-keys/{key_id}` revokes one); and one account with its load settings
 * (`GET` and `PATCH /_sandbox/accounts/{account_id}`: `rate_limit`, `latency`), which rehearse a
 * sale day against this account alone.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { controlOperation } from '../../core/http/openapi/document.js';
import { errors, json, type ControlHandler } from '../../core/http/control-route-parts.js';
import { accountCredentialsSchema, credentialsSchema } from './control.schemas.js';
import { credentialsOf } from './accounts.js';
import type { MerchantAccounts } from './merchant-accounts.js';
import type { AccountQueries } from './ports.js';
import { webhookKeyForms } from '../webhooks/index.js';
import type { AppEnv } from '../../core/http/env.js';
import { createRouter } from '../../core/http/router.js';
import { MAX_KEYS_PER_ACCOUNT, redactedSecret, type ApiKey, type ApiKeyService } from '../../core/auth/api-keys.js';
import { SCOPES } from '../../core/http/auth.js';
import { errorSchema } from '../../core/http/schemas.js';
import { isoTimestamp } from '../../core/clock/clock.js';
import { notFound } from '../../core/domain/errors.js';
import { MAX_LATENCY_MS, parseLatency, type LoadSettings } from '../../core/http/load-rehearsal.js';
import type { AccountLoadSettings } from './load-settings.js';

export const listCredentials = createRoute({
  method: 'get',
  path: '/credentials',
  ...controlOperation,
  operationId: 'getCredentials',
  summary: 'Demo and created accounts with their credentials, and the webhook public key in every form',
  responses: { 200: json(credentialsSchema) },
});

export const createAccount = createRoute({
  method: 'post',
  path: '/accounts',
  ...controlOperation,
  operationId: 'createAccount',
  summary: 'Create an isolated account with fresh credentials',
  request: {
    body: {
      required: true,
      content: {
        'application/json': { schema: z.object({ mode: z.enum(['direct', 'checkout']), name: z.string().min(1).max(64).optional() }) },
      },
    },
  },
  responses: { 201: json(accountCredentialsSchema, 'Created'), 400: errors[400] },
});

export type ListCredentialsRoute = typeof listCredentials;
export type CreateAccountRoute = typeof createAccount;

/** What the account routes use. */
export interface AccountControlDeps {
  accounts: Pick<AccountQueries, 'all'>;
  merchantAccounts: Pick<MerchantAccounts, 'create'>;
  webhookPublicKeyPem: string;
  /** The default webhook target (`--notification-url`), if any. */
  notificationUrl: string | undefined;
}

export function accountHandlers(deps: AccountControlDeps) {
  const credentials: ControlHandler<ListCredentialsRoute> = async (c) =>
    c.json(
      {
        accounts: deps.accounts.all().map(credentialsOf),
        webhook_public_key_pem: deps.webhookPublicKeyPem,
        webhook_public_key: await webhookKeyForms(),
        notification_url: deps.notificationUrl ?? null,
      },
      200,
    );

  const create: ControlHandler<CreateAccountRoute> = async (c) => {
    const { mode, name } = c.req.valid('json');
    return c.json(await deps.merchantAccounts.create(mode, name), 201);
  };

  return { credentials, create };
}

export function accountControlRoutes(deps: AccountControlDeps): OpenAPIHono<AppEnv> {
  const handlers = accountHandlers(deps);
  return createRouter<AppEnv>().openapi(listCredentials, handlers.credentials).openapi(createAccount, handlers.create);
}

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

export const createApiKey = createRoute({
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

export const listApiKeys = createRoute({
  method: 'get',
  path: '/accounts/{account_id}/api-keys',
  ...controlOperation,
  operationId: 'listApiKeys',
  summary: "An account's restricted keys, oldest first (secrets redacted)",
  request: { params: accountParam },
  responses: { 200: json(apiKeyListSchema, 'The keys'), 404: json(errorSchema, 'No such account') },
});

export const revokeApiKey = createRoute({
  method: 'delete',
  path: '/accounts/{account_id}/api-keys/{key_id}',
  ...controlOperation,
  operationId: 'revokeApiKey',
  summary: 'Revoke a restricted key: its secret is a 401 from now on',
  request: { params: keyParams },
  responses: { 200: json(apiKeySchema, 'The revoked key'), 404: json(errorSchema, 'No such account or key') },
});

export type CreateApiKeyRoute = typeof createApiKey;
export type ListApiKeysRoute = typeof listApiKeys;
export type RevokeApiKeyRoute = typeof revokeApiKey;

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
  const create: ControlHandler<CreateApiKeyRoute> = (c) => {
    const { account_id: accountId } = c.req.valid('param');
    const { scopes, name } = c.req.valid('json');
    const { key, secret } = apiKeys.create(accountId, scopes, name);
    return c.json({ ...apiKeyView(key), secret }, 201);
  };

  const list: ControlHandler<ListApiKeysRoute> = (c) =>
    c.json({ items: apiKeys.list(c.req.valid('param').account_id).map(apiKeyView) }, 200);

  const revoke: ControlHandler<RevokeApiKeyRoute> = (c) => {
    const { account_id: accountId, key_id: keyId } = c.req.valid('param');
    return c.json(apiKeyView(apiKeys.revoke(accountId, keyId)), 200);
  };

  return { create, list, revoke };
}

export function apiKeyControlRoutes(deps: ApiKeyControlDeps): OpenAPIHono<AppEnv> {
  const handlers = apiKeyHandlers(deps);
  return createRouter<AppEnv>()
    .openapi(createApiKey, handlers.create)
    .openapi(listApiKeys, handlers.list)
    .openapi(revokeApiKey, handlers.revoke);
}

const latencySchema = z
  .object({
    p50_ms: z.number().openapi({ description: 'Median time added to each /v4 call, in milliseconds.' }),
    p99_ms: z.number().openapi({ description: '99th percentile (equal to p50_ms: a fixed time).' }),
  })
  .openapi('Latency');

export const accountSettingsSchema = z
  .object({
    account_id: z.string(),
    name: z.string(),
    mode: z.enum(['direct', 'checkout']),
    rate_limit: z.number().int().openapi({ description: '/v4 requests per second allowed (burst of as many); 0: no limit.' }),
    latency: latencySchema,
    webhook_canary: z.boolean().openapi({
      description:
        'Whether a URL of this account gets a webhook canary: after its first acknowledged delivery, one copy with a broken signature, which it must refuse (sandbox extension).',
    }),
    own: z
      .object({ rate_limit: z.boolean(), latency: z.boolean(), webhook_canary: z.boolean() })
      .openapi({ description: "Which settings are the account's own (false: the --rate-limit / --latency / --webhook-canary option's)." }),
  })
  .openapi('AccountSettings');

export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** What a field of the change takes to go back to the option's value (`null` is the field left out, as in every body). */
const OPTION_VALUE = 'option';

const latencyInput = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    if (value === OPTION_VALUE) return null;
    try {
      return parseLatency(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  })
  .openapi({
    description: `Milliseconds (250: a fixed time), or "p50=MS,p99=MS" (a log-normal distribution through both, at most ${MAX_LATENCY_MS} ms); "${OPTION_VALUE}": the --latency option's.`,
    example: 'p50=80,p99=900',
  });

export const accountSettingsChangeSchema = z
  .strictObject({
    rate_limit: z
      .union([z.number().int().min(0).max(100_000), z.literal(OPTION_VALUE).transform(() => null)])
      .optional()
      .openapi({
        description: `Requests per second (a token bucket with a burst of as many; 0: no limit); "${OPTION_VALUE}": the --rate-limit option's.`,
      }),
    latency: latencyInput.optional(),
    webhook_canary: z
      .union([z.boolean(), z.literal(OPTION_VALUE).transform(() => null)])
      .optional()
      .openapi({
        description: `Send this account's webhook URLs a canary (true) or not (false); "${OPTION_VALUE}": the --webhook-canary option's.`,
      }),
  })
  .openapi('AccountSettingsChange');

export const getAccountSettings = createRoute({
  method: 'get',
  path: '/accounts/{account_id}',
  ...controlOperation,
  operationId: 'getAccount',
  summary: 'One account and its settings (rate limit, latency, webhook canary)',
  request: { params: accountParam },
  responses: { 200: json(accountSettingsSchema), 404: errors[404] },
});

export const patchAccountSettings = createRoute({
  method: 'patch',
  path: '/accounts/{account_id}',
  ...controlOperation,
  operationId: 'updateAccount',
  summary: "Set an account's own rate limit and latency, to rehearse load against it, and its webhook canary",
  description:
    'Over `--rate-limit`, the account is answered 429 in the error envelope with `Retry-After`, as a provider throttles; the go-live report sees whether the merchant waited.',
  request: { params: accountParam, body: { required: true, content: { 'application/json': { schema: accountSettingsChangeSchema } } } },
  responses: { 200: json(accountSettingsSchema), 400: errors[400], 404: errors[404] },
});

export interface AccountSettingsDeps {
  accounts: Pick<AccountQueries, 'byId'>;
  loadSettings: AccountLoadSettings;
  /** Tells the change feed (the panel shows the settings). */
  emit(type: 'account.updated', accountId: string, data: unknown): void;
}

export function accountSettingsRoutes({ accounts, loadSettings, emit }: AccountSettingsDeps): OpenAPIHono<AppEnv> {
  const view = (accountId: string, inForce?: LoadSettings) => {
    const account = accounts.byId(accountId);
    if (!account) throw notFound(`Merchant account ${accountId} not found`);
    const settings = inForce ?? loadSettings.of(accountId);
    const own = loadSettings.own(accountId);
    return {
      account_id: account.id,
      name: account.name,
      mode: account.mode,
      rate_limit: settings.rateLimit,
      latency: { p50_ms: settings.latency.p50Ms, p99_ms: settings.latency.p99Ms },
      webhook_canary: loadSettings.webhookCanary(accountId),
      own: { rate_limit: own.rateLimit !== undefined, latency: own.latency !== undefined, webhook_canary: own.webhookCanary !== undefined },
    };
  };
  const read: ControlHandler<typeof getAccountSettings> = (c) => c.json(view(c.req.valid('param').account_id), 200);
  const change: ControlHandler<typeof patchAccountSettings> = (c) => {
    const accountId = c.req.valid('param').account_id;
    view(accountId); // 404 before anything changes
    const body = c.req.valid('json');
    const inForce = loadSettings.change(accountId, {
      ...(body.rate_limit !== undefined ? { rateLimit: body.rate_limit } : {}),
      ...(body.latency !== undefined ? { latency: body.latency } : {}),
      ...(body.webhook_canary !== undefined ? { webhookCanary: body.webhook_canary } : {}),
    });
    const answer = view(accountId, inForce);
    emit('account.updated', accountId, { rate_limit: answer.rate_limit, latency: answer.latency, webhook_canary: answer.webhook_canary });
    return c.json(answer, 200);
  };
  return createRouter<AppEnv>().openapi(getAccountSettings, read).openapi(patchAccountSettings, change);
}
