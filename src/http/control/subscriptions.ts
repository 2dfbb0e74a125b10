/**
 * Control API of subscriptions and scenarios (sandbox extension, for the panel and CI):
 * `GET /_sandbox/subscriptions` (a page of Subscription objects, each with its `charges`,
 * the actions legal now and its next charge time),
 * `POST /_sandbox/subscriptions/{id}/cancel` and `GET /_sandbox/scenarios` (what is loaded).
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { notFound } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../pagination.js';
import { controlOperation } from '../openapi/document.js';
import { createRouter } from '../router.js';
import { errorSchema } from '../schemas.js';
import { controlSubscriptionSchema, scenarioSummarySchema } from './schemas.js';
import { controlSubscription } from './views.js';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } });

/** The /_sandbox routes of subscriptions and scenarios. */
export function subscriptionControlRoutes(): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/subscriptions',
      ...controlOperation,
      operationId: 'listControlSubscriptions',
      summary: "An account's subscriptions with their charges, newest first (all accounts without account_id)",
      request: { query: pageQuerySchema.extend({ account_id: z.string().optional() }) },
      responses: { 200: json(pageSchema(controlSubscriptionSchema, 'ControlSubscriptionPage')), 400: json(errorSchema, 'Bad request'), 404: json(errorSchema, 'Not found') },
    }),
    (c) => {
      const sandbox = c.get('sandbox');
      const query = c.req.valid('query');
      if (query.account_id !== undefined && !sandbox.stores.accounts.byId(query.account_id)) {
        throw notFound(`Merchant account ${query.account_id} not found`);
      }
      const list = { list: '_sandbox/subscriptions', scope: query.account_id ?? '*' };
      const req = pageRequest(query, list);
      const page = query.account_id === undefined ? sandbox.stores.subscriptions.pageAll(req) : sandbox.stores.subscriptions.page(query.account_id, req);
      return c.json(pageEnvelope(page, query.limit, (row) => controlSubscription(sandbox, row), list), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/subscriptions/{id}/cancel',
      ...controlOperation,
      operationId: 'cancelControlSubscription',
      summary: 'Cancel a subscription now (as the merchant would), answering it with its charges',
      request: { params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) }) },
      responses: { 200: json(controlSubscriptionSchema), 404: json(errorSchema, 'Not found'), 409: json(errorSchema, 'Already cancelled or failed') },
    }),
    (c) => {
      const sandbox = c.get('sandbox');
      const { id } = c.req.valid('param');
      const row = sandbox.stores.subscriptions.byIdAnyAccount(id);
      if (!row) throw notFound(`Subscription ${id} not found`);
      return c.json(controlSubscription(sandbox, sandbox.subscriptions.cancel(row.id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/scenarios',
      ...controlOperation,
      operationId: 'listScenarios',
      summary: 'The loaded scenarios and their rules, in matching order',
      responses: { 200: json(z.object({ scenarios: z.array(scenarioSummarySchema) })) },
    }),
    (c) => c.json({ scenarios: c.get('sandbox').scenarios.describe() }, 200),
  );

  return app;
}
