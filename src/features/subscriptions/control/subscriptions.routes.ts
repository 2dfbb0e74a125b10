/** Route definitions of the control API's subscriptions: list (with charges), cancel. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { pageQuerySchema, pageSchema } from '../../../core/http/pagination.js';
import { errorSchema, lowerCaseUuid } from '../../../core/http/schemas.js';
import { json } from '../../../core/http/control-route-parts.js';
import { controlSubscriptionSchema } from './subscriptions.schemas.js';

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
