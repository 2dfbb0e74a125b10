/**
 * /v4/subscriptions: create, read, list (cursor pages), cancel.
 *
 * POST /v4/subscriptions is validated once (the pipeline's `create`): the body with the schema of the
 * account's mode, the `--restricted-channel-code` setting and the sandbox clock (trial_end),
 * together with `X-Forwarded-For`; every failure comes back in one 400. The OpenAPI document
 * shows the same schemas (one per mode) by reference. The router is given its query port, the
 * subscription service and its options (`SubscriptionRouteDeps`), never the sandbox.
 */
import { type OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Clock } from '../../core/clock/clock.js';
import { notFound } from '../../core/domain/errors.js';
import type { SubscriptionQueries } from './ports.js';
import { type SubscriptionService } from './subscriptions.js';
import { subscriptionMatchInput } from './subscription-terms.js';
import type { Secured } from '../../core/http/auth.js';
import type { ApiEnv } from '../../core/http/env.js';
import { subscriptionView } from './subscription-format.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../../core/http/pagination.js';
import { createRouter } from '../../core/http/router.js';
import {
  accountHeaderSchema,
  conflictResponse,
  errorResponses,
  idempotencyHeaderParameters,
  idempotentReplayedHeader,
  uuidPathParams,
} from '../../core/http/schemas.js';
import { documentedBody } from '../../core/http/validation.js';
import { forwardedForSchema } from './forwarded-for.js';
import type { ApiPipeline } from '../../core/http/pipeline.js';
import { subscriptionDraft } from './subscription-draft.js';
import { subscriptionCreateDocument, subscriptionCreateSchema } from './subscription-create-schema.js';
import { subscriptionResponseSchema } from './subscription-response-schema.js';
import { warnIgnoredWebhookField } from '../go-live/index.js';

const security = [{ bearerAuth: [] }];
const tags = ['Subscriptions'];
const idParam = uuidPathParams('subscription_id', '0b7f3c2e-5d41-4c1a-9a57-3f0f6f2b8e11');

const subscriptionJson = { 'application/json': { schema: subscriptionResponseSchema } };

const create = (secured: Secured) =>
  createRoute({
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
      {
        name: 'x-forwarded-for',
        in: 'header' as const,
        required: true,
        description: 'The original client IP address.',
        schema: { type: 'string' as const },
        example: '203.0.113.7',
      },
    ],
    request: { body: documentedBody('SubscriptionCreate') },
    responses: {
      201: { description: 'Created', headers: idempotentReplayedHeader, content: subscriptionJson },
      ...errorResponses,
      ...conflictResponse,
    },
  });

const get = (secured: Secured) =>
  createRoute({
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

const list = (secured: Secured) =>
  createRoute({
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

const cancel = (secured: Secured) =>
  createRoute({
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

/** What the subscription routes use. */
export interface SubscriptionRouteDeps {
  /** Reads: a subscription of the account, its pages. */
  queries: Pick<SubscriptionQueries, 'byId' | 'page'>;
  /** Writes: create and cancel (the service checks the state). */
  subscriptions: Pick<SubscriptionService, 'create' | 'cancel'>;
  pipeline: ApiPipeline;
  /** The sandbox clock (a `trial_end` must be in its future). */
  clock: Pick<Clock, 'nowMs'>;
  /** `--restricted-channel-code`: billing_details and cart_items are required with it. */
  restrictedChannelCode: string;
  /** The base URL of `payment_url` for the request `c` (`--public-url`, else the origin it came in on). */
  baseUrl(c: Context): string;
}

/** The subscription routes, mounted under /v4; the document shows the body for `restrictedChannelCode`. */
export function subscriptionRoutes({
  queries,
  subscriptions,
  pipeline,
  clock,
  restrictedChannelCode,
  baseUrl,
}: SubscriptionRouteDeps): OpenAPIHono<ApiEnv> {
  const { secured, create: created } = pipeline;
  const app = createRouter<ApiEnv>();
  app.openAPIRegistry.register('SubscriptionCreate', subscriptionCreateDocument(restrictedChannelCode));

  /**
   * The one precondition of the routes on one subscription: it is the caller's account's (the
   * service takes bare ids, so tenancy is checked here); an id of another account is unknown.
   */
  const ownSubscription = (accountId: string, id: string) => {
    const row = queries.byId(accountId, id);
    if (!row) throw notFound(`Subscription ${id} not found`);
    return row;
  };

  app.openapi(create(secured), (c) => {
    const account = c.get('account');
    warnIgnoredWebhookField(c); // a top-level notification_url: subscriptions take payment_method.webhooks_url
    const body = subscriptionCreateSchema({
      restrictedChannelCode,
      directMode: account.mode === 'direct',
      nowMs: clock.nowMs(),
    });
    const operation = { body, headers: forwardedForSchema, input: subscriptionDraft, match: subscriptionMatchInput };
    return created(c, operation, 201, (draft, match) =>
      subscriptionView(subscriptions.create(account, draft, match!), baseUrl(c), account.mode),
    );
  });

  app.openapi(get(secured), (c) => {
    const row = ownSubscription(c.get('account').id, c.req.valid('param').subscription_id);
    return c.json(subscriptionView(row, baseUrl(c), c.get('account').mode), 200);
  });

  app.openapi(list(secured), (c) => {
    const query = c.req.valid('query');
    const account = c.get('account');
    const list = { list: 'subscriptions', scope: account.id };
    const page = queries.page(account.id, pageRequest(query, list));
    const base = baseUrl(c);
    return c.json(
      pageEnvelope(page, query.limit, (row) => subscriptionView(row, base, account.mode), list),
      200,
    );
  });

  app.openapi(cancel(secured), (c) => {
    const row = subscriptions.cancel(ownSubscription(c.get('account').id, c.req.valid('param').subscription_id).id);
    return c.json(subscriptionView(row, baseUrl(c), c.get('account').mode), 200);
  });

  return app;
}
