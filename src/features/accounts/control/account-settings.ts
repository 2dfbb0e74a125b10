/**
 * `GET /_sandbox/accounts/{account_id}` and `PATCH` the same: one account and its load settings
 * (`rate_limit`, `latency`), which rehearse a sale day against this account alone.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errors, json } from '../../../core/http/control-route-parts.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { AppEnv } from '../../../core/http/env.js';
import { createRouter } from '../../../core/http/router.js';
import { notFound } from '../../../core/domain/errors.js';
import type { AccountQueries } from '../ports.js';
import { MAX_LATENCY_MS, parseLatency, type LoadSettings } from '../../../core/http/load-rehearsal.js';
import type { AccountLoadSettings } from '../load-settings.js';

const accountParam = z.object({
  account_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'account_id', in: 'path' }, example: 'acc_demo_direct' }),
});

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

export const get = createRoute({
  method: 'get',
  path: '/accounts/{account_id}',
  ...controlOperation,
  operationId: 'getAccount',
  summary: 'One account and its settings (rate limit, latency, webhook canary)',
  request: { params: accountParam },
  responses: { 200: json(accountSettingsSchema), 404: errors[404] },
});

export const patch = createRoute({
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
  const read: ControlHandler<typeof get> = (c) => c.json(view(c.req.valid('param').account_id), 200);
  const change: ControlHandler<typeof patch> = (c) => {
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
  return createRouter<AppEnv>().openapi(get, read).openapi(patch, change);
}
