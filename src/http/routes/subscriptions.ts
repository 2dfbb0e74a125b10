/**
 * /v4/subscriptions: create, read, list (cursor pages), cancel.
 *
 * POST /v4/subscriptions is validated once (`validRequest`): the body with the schema of the
 * account's mode, the `--restricted-channel-code` setting and the sandbox clock (trial_end),
 * together with `X-Forwarded-For`; every failure comes back in one 400. The OpenAPI document
 * shows the same schemas (one per mode) by reference.
 */
import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { notFound } from '../../domain/errors.js';
import { subscriptionMatchInput } from '../../domain/subscriptions.js';
import { secured } from '../auth.js';
import type { ApiEnv } from '../env.js';
import { subscriptionView } from '../formatters/subscription.js';
import { scenarioFault } from '../faults.js';
import { idempotent } from '../idempotency.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../pagination.js';
import { createRouter } from '../router.js';
import { accountHeaderSchema, conflictResponse, errorResponses, idempotencyHeaderParameters, idempotentReplayedHeader, uuidPathParams } from '../schemas.js';
import { documentedBody, validRequest } from '../validation.js';
import { forwardedForSchema } from '../wire/forwarded-for.js';
import { subscriptionDraft } from '../wire/subscription-draft.js';
import { subscriptionCreateDocument, subscriptionCreateSchema, subscriptionResponseSchema } from './subscriptions.schemas.js';

const security = [{ bearerAuth: [] }];
const tags = ['Subscriptions'];
const idParam = uuidPathParams('subscription_id', '0b7f3c2e-5d41-4c1a-9a57-3f0f6f2b8e11');

const subscriptionJson = { 'application/json': { schema: subscriptionResponseSchema } };

const create = createRoute({
  method: 'post',
  path: '/subscriptions',
  tags,
  summary: 'Create a subscription; its first period is charged at once or when the trial ends',
  operationId: 'createSubscription',
  description:
    'Scope subscriptions.write. The body schema depends on the account mode (anyOf: the first for direct accounts, the second for checkout): direct-mode accounts must also send ' +
    'browser_info and, for type card, number, expiration_date and security_code. billing_details and cart_items are ' +
    'required when payment_method.payment_channel_code is the restricted channel (--restricted-channel-code).',
  security,
  middleware: secured('subscriptions.write'),
  parameters: [
    ...idempotencyHeaderParameters,
    { name: 'x-forwarded-for', in: 'header' as const, required: true, description: 'The original client IP address.', schema: { type: 'string' as const }, example: '203.0.113.7' },
  ],
  request: { body: documentedBody('SubscriptionCreate') },
  responses: { 201: { description: 'Created', headers: idempotentReplayedHeader, content: subscriptionJson }, ...errorResponses, ...conflictResponse },
});

const get = createRoute({
  method: 'get',
  path: '/subscriptions/{subscription_id}',
  tags,
  summary: 'Get a subscription',
  operationId: 'getSubscription',
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
  operationId: 'listSubscriptions',
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
  operationId: 'cancelSubscription',
  security,
  // The body gate like every write: cancel reads no body, so no body, an empty one (with or
  // without a JSON content type) and `{}` are alike; a malformed one is a 400 as on refunds.
  middleware: secured('subscriptions.write'),
  request: { params: idParam, headers: accountHeaderSchema },
  responses: {
    200: { description: 'The cancelled subscription', content: subscriptionJson },
    ...errorResponses,
    409: { description: 'invalid_state: already cancelled or failed', content: errorResponses[400].content },
  },
});

/** The subscription routes, mounted under /v4; the document shows the body for `restrictedChannelCode`. */
export function subscriptionRoutes(restrictedChannelCode: string): OpenAPIHono<ApiEnv> {
  const app = createRouter<ApiEnv>();
  app.openAPIRegistry.register('SubscriptionCreate', subscriptionCreateDocument(restrictedChannelCode));

  const findSubscription = (c: Context<ApiEnv>, id: string) => {
    const row = c.get('sandbox').stores.subscriptions.byId(c.get('account').id, id);
    if (!row) throw notFound(`Subscription ${id} not found`);
    return row;
  };

  app.openapi(create, async (c) => {
    const sandbox = c.get('sandbox');
    const account = c.get('account');
    const body = subscriptionCreateSchema({
      restrictedChannelCode: sandbox.options.restrictedChannelCode,
      directMode: account.mode === 'direct',
      nowMs: sandbox.clock.nowMs(),
    });
    const draft = subscriptionDraft(validRequest(c, { body, headers: forwardedForSchema }));
    const match = subscriptionMatchInput(draft);
    await scenarioFault(c, match);
    return idempotent(c, 201, () => subscriptionView(sandbox.subscriptions.create(account, draft, match), sandbox.baseUrl, account.mode));
  });

  app.openapi(get, (c) => {
    const row = findSubscription(c, c.req.valid('param').subscription_id);
    return c.json(subscriptionView(row, c.get('sandbox').baseUrl, c.get('account').mode), 200);
  });

  app.openapi(list, (c) => {
    const query = c.req.valid('query');
    const sandbox = c.get('sandbox');
    const account = c.get('account');
    const list = { list: 'subscriptions', scope: account.id };
    const page = sandbox.stores.subscriptions.page(account.id, pageRequest(query, list));
    return c.json(pageEnvelope(page, query.limit, (row) => subscriptionView(row, sandbox.baseUrl, account.mode), list), 200);
  });

  app.openapi(cancel, (c) => {
    const sandbox = c.get('sandbox');
    const row = sandbox.subscriptions.cancel(findSubscription(c, c.req.valid('param').subscription_id).id);
    return c.json(subscriptionView(row, sandbox.baseUrl, c.get('account').mode), 200);
  });

  return app;
}
