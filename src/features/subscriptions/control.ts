/**
 * The control routes of subscriptions, their definitions and handlers: every account's
 * subscriptions with their charges (`GET /_sandbox/subscriptions`), and cancelling one now.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { controlOperation } from '../../core/http/openapi/document.js';
import { pageQuerySchema, pageSchema, pageEnvelope, pageRequest } from '../../core/http/pagination.js';
import { errorSchema, lowerCaseUuid } from '../../core/http/schemas.js';
import { json, accountOr404, type ControlHandler } from '../../core/http/control-route-parts.js';
import { controlSubscriptionSchema } from './control.schemas.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { SubscriptionQueries } from './ports.js';
import type { SubscriptionService } from './subscriptions.js';
import type { SubscriptionViews } from './control-views.js';
import type { AppEnv } from '../../core/http/env.js';
import { createRouter } from '../../core/http/router.js';

export const list = createRoute({
  method: 'get',
  path: '/subscriptions',
  ...controlOperation,
  operationId: 'listControlSubscriptions',
  summary: "An account's subscriptions with their charges, newest first (all accounts without account_id)",
  request: { query: pageQuerySchema.extend({ account_id: z.string().optional() }) },
  responses: {
    200: json(pageSchema(controlSubscriptionSchema, 'ControlSubscriptionPage')),
    400: json(errorSchema, 'Bad request'),
    404: json(errorSchema, 'Not found'),
  },
});

export const cancel = createRoute({
  method: 'post',
  path: '/subscriptions/{id}/cancel',
  ...controlOperation,
  operationId: 'cancelControlSubscription',
  summary: 'Cancel a subscription now (as the merchant would), answering it with its charges',
  request: {
    params: z.object({
      id: z
        .string()
        .overwrite(lowerCaseUuid)
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
  },
  responses: {
    200: json(controlSubscriptionSchema),
    404: json(errorSchema, 'Not found'),
    409: json(errorSchema, 'Already cancelled or failed'),
  },
});

export type ListRoute = typeof list;
export type CancelRoute = typeof cancel;

/** What the subscription routes use. */
export interface SubscriptionControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  subscriptions: Pick<SubscriptionQueries, 'page' | 'pageAll'>;
  service: Pick<SubscriptionService, 'cancel'>;
  views: SubscriptionViews;
}

export function subscriptionHandlers(deps: SubscriptionControlDeps) {
  const list: ControlHandler<ListRoute> = (c) => {
    const query = c.req.valid('query');
    accountOr404(deps.accounts, query.account_id);
    const scope = { list: '_sandbox/subscriptions', scope: query.account_id ?? '*' };
    const req = pageRequest(query, scope);
    const page = query.account_id === undefined ? deps.subscriptions.pageAll(req) : deps.subscriptions.page(query.account_id, req);
    return c.json(pageEnvelope(page, query.limit, deps.views.subscription, scope), 200);
  };

  const cancel: ControlHandler<CancelRoute> = (c) => {
    const { id } = c.req.valid('param');
    // The domain decides a missing subscription (404) as it decides the rest.
    return c.json(deps.views.subscription(deps.service.cancel(id)), 200);
  };

  return { list, cancel };
}

export function subscriptionControlRoutes(deps: SubscriptionControlDeps): OpenAPIHono<AppEnv> {
  const handlers = subscriptionHandlers(deps);
  return createRouter<AppEnv>().openapi(list, handlers.list).openapi(cancel, handlers.cancel);
}
