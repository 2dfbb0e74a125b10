/**
 * GET /v4/buyers (and GET /buyers, as in the spec's pagination example): faker buyers, cursor
 * pages. The same route is mounted twice, so each mount names its own operationId.
 */
import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { secured } from '../auth.js';
import type { ApiEnv } from '../env.js';
import { buyerView } from '../formatters/buyer.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../pagination.js';
import { createRouter } from '../router.js';
import { buyerSchema } from './buyers.schemas.js';
import { accountHeaderParameters, errorResponses } from '../schemas.js';

const list = (operationId: string) => createRoute({
  method: 'get',
  path: '/buyers',
  tags: ['Buyers'],
  summary: 'List buyers, newest first',
  operationId,
  security: [{ bearerAuth: [] }],
  middleware: secured('buyers.read'),
  parameters: accountHeaderParameters,
  request: { query: pageQuerySchema },
  responses: { 200: { description: 'A page', content: { 'application/json': { schema: pageSchema(buyerSchema, 'Buyers') } } }, ...errorResponses },
});

/** The buyer routes; `operationId` names the list operation in the OpenAPI document. */
export function buyerRoutes(operationId = 'listBuyers'): OpenAPIHono<ApiEnv> {
  const app = createRouter<ApiEnv>();
  app.openapi(list(operationId), (c) => {
    const query = c.req.valid('query');
    const page = c.get('sandbox').stores.buyers.page(c.get('account').id, pageRequest(query));
    return c.json(pageEnvelope(page, query.limit, buyerView), 200);
  });
  return app;
}
