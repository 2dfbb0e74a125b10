/**
 * /v4/subscriptions: create, read, list (cursor pages), cancel.
 *
 * The creation body's rules depend on the account (direct mode needs `browser_info` and the
 * card) and on the `--restricted-channel-code` setting, which a route-level validator cannot
 * know; so POST /v4/subscriptions validates in its handler with the account's variant of
 * `subscriptionCreateSchema`, together with `X-Forwarded-For`, and answers every failure in
 * one 400 (each detail with its pointer and location). The OpenAPI document shows the body
 * of a checkout account with the default restricted channel.
 */
import { isIP } from 'node:net';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { DEFAULT_RESTRICTED_CHANNEL_CODE } from '../../config.js';
import { badRequest, notFound, type ErrorDetail } from '../../domain/errors.js';
import { trialEndProblem } from '../../domain/subscription-calendar.js';
import { requireAuth, requireScope, secured } from '../auth.js';
import type { AppEnv } from '../env.js';
import { zodDetails } from '../errors.js';
import { subscriptionView } from '../formatters/subscription.js';
import { idempotent } from '../idempotency.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../pagination.js';
import { accountHeaderSchema, conflictResponse, errorResponses, idempotencyHeaderSchema } from '../schemas.js';
import { warnUnknownFields } from '../unknown-fields.js';
import type { Hook } from './hook.js';
import { subscriptionCreateSchema, subscriptionResponseSchema } from './subscriptions.schemas.js';

const security = [{ bearerAuth: [] }];
const tags = ['Subscriptions'];
const idParam = z.object({
  subscription_id: z.string().openapi({ param: { name: 'subscription_id', in: 'path' }, example: '0b7f3c2e-5d41-4c1a-9a57-3f0f6f2b8e11' }),
});

/** Whether `value` is an X-Forwarded-For value: IP addresses separated by commas, the client first. */
export function isForwardedFor(value: string): boolean {
  return value.split(',').every((part) => isIP(part.trim()) !== 0);
}

/** The extra header of POST /v4/subscriptions (spec: Endpoints). */
const forwardedForSchema = z.object({
  'x-forwarded-for': z
    .string({ error: 'Required: the original client IP address' })
    .refine(isForwardedFor, 'Must be an IP address (or a comma-separated list of them, the client first)')
    .openapi({ description: 'Required: the original client IP address.', example: '203.0.113.7' }),
});

const subscriptionJson = { 'application/json': { schema: subscriptionResponseSchema } };

/** POST /subscriptions as the OpenAPI document shows it (validation runs in the handler). */
const createDocumented = createRoute({
  method: 'post',
  path: '/subscriptions',
  tags,
  summary: 'Create a subscription; its first period is charged at once or when the trial ends',
  description:
    'Scope subscriptions.write. Direct-mode accounts must also send browser_info and, for type card, number, ' +
    'expiration_date and security_code. billing_details and cart_items are required when ' +
    'payment_method.payment_channel_code is the restricted channel (--restricted-channel-code).',
  security,
  request: {
    headers: idempotencyHeaderSchema.extend(forwardedForSchema.shape),
    body: {
      required: true,
      content: { 'application/json': { schema: subscriptionCreateSchema({ restrictedChannelCode: DEFAULT_RESTRICTED_CHANNEL_CODE, directMode: false }) } },
    },
  },
  responses: { 201: { description: 'Created', content: subscriptionJson }, ...errorResponses, ...conflictResponse },
});

const create = createRoute({
  method: 'post',
  path: '/subscriptions',
  hide: true,
  middleware: secured('subscriptions.write'),
  responses: { 201: { description: 'Created', content: subscriptionJson } },
});

const get = createRoute({
  method: 'get',
  path: '/subscriptions/{subscription_id}',
  tags,
  summary: 'Get a subscription',
  security,
  middleware: secured('subscriptions.read'),
  request: { params: idParam, headers: accountHeaderSchema },
  responses: { 200: { description: 'The subscription', content: subscriptionJson }, ...errorResponses },
});

const list = createRoute({
  method: 'get',
  path: '/subscriptions',
  tags,
  summary: 'List subscriptions, newest first',
  security,
  middleware: secured('subscriptions.read'),
  request: { query: pageQuerySchema, headers: accountHeaderSchema },
  responses: {
    200: { description: 'A page', content: { 'application/json': { schema: pageSchema(subscriptionResponseSchema, 'Subscriptions') } } },
    ...errorResponses,
  },
});

const cancel = createRoute({
  method: 'post',
  path: '/subscriptions/{subscription_id}/cancel',
  tags,
  summary: 'Cancel a subscription now: no further charges',
  security,
  // No body gate: cancel reads no body, so an empty one sent with a JSON content type is fine.
  middleware: [requireAuth, requireScope('subscriptions.write')],
  request: { params: idParam, headers: accountHeaderSchema },
  responses: {
    200: { description: 'The cancelled subscription', content: subscriptionJson },
    ...errorResponses,
    409: { description: 'invalid_state: already cancelled or failed', content: errorResponses[400].content },
  },
});

/** The subscription routes, mounted under /v4. */
export function subscriptionRoutes(hook: Hook): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: hook });
  app.openAPIRegistry.registerPath(createDocumented);

  const findSubscription = (c: { get: <K extends 'sandbox' | 'account'>(k: K) => AppEnv['Variables'][K] }, id: string) => {
    const row = c.get('sandbox').stores.subscriptions.byId(c.get('account').id, id);
    if (!row) throw notFound(`Subscription ${id} not found`);
    return row;
  };

  app.openapi(create, async (c) => {
    const sandbox = c.get('sandbox');
    const account = c.get('account');
    const raw = c.get('body');
    if (raw === undefined) {
      throw badRequest('A JSON body is required', [{ type: 'missing', pointer: '', message: 'Body required', location: 'body' }]);
    }
    const details: ErrorDetail[] = [];

    const headers = { 'x-forwarded-for': c.req.header('x-forwarded-for') };
    const header = forwardedForSchema.safeParse(headers);
    if (!header.success) details.push(...zodDetails(header.error, 'header', headers));

    const schema = subscriptionCreateSchema({ restrictedChannelCode: sandbox.options.restrictedChannelCode, directMode: account.mode === 'direct' });
    const body = schema.safeParse(raw);
    if (body.success) {
      details.push(...sandbox.subscriptions.problems(account, body.data));
    } else {
      details.push(...zodDetails(body.error, 'body', raw));
      // A well-formed trial_end in the past is reported with the other failures.
      const trialEnd = (raw as { trial_end?: unknown }).trial_end;
      if (typeof trialEnd === 'string' && !body.error.issues.some((i) => i.path[0] === 'trial_end')) {
        const problem = trialEndProblem(trialEnd, sandbox.clock.nowMs());
        if (problem) details.push(problem);
      }
    }
    if (details.length > 0 || !body.success) throw badRequest('Request failed validation', details);

    warnUnknownFields(c, raw, body.data);

    return idempotent(c, 201, () => subscriptionView(sandbox.subscriptions.create(account, body.data), sandbox.baseUrl, account.mode));
  });

  app.openapi(get, (c) => {
    const row = findSubscription(c, c.req.valid('param').subscription_id);
    return c.json(subscriptionView(row, c.get('sandbox').baseUrl, c.get('account').mode), 200);
  });

  app.openapi(list, (c) => {
    const query = c.req.valid('query');
    const sandbox = c.get('sandbox');
    const account = c.get('account');
    const page = sandbox.stores.subscriptions.page(account.id, pageRequest(query));
    return c.json(pageEnvelope(page, query.limit, (row) => subscriptionView(row, sandbox.baseUrl, account.mode)), 200);
  });

  app.openapi(cancel, (c) => {
    const sandbox = c.get('sandbox');
    const row = sandbox.subscriptions.cancel(findSubscription(c, c.req.valid('param').subscription_id).id);
    return c.json(subscriptionView(row, sandbox.baseUrl, c.get('account').mode), 200);
  });

  return app;
}
