/** GET /v4/buyers (and GET /buyers, as in the spec's pagination example): faker buyers, cursor pages. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { secured } from '../auth.js';
import type { AppEnv } from '../env.js';
import { buyerView } from '../formatters/buyer.js';
import { buyerSchema } from './buyers.schemas.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../pagination.js';
import { accountHeaderParameters, errorResponses } from '../schemas.js';
import type { Hook } from './hook.js';



const list = createRoute({
  method: 'get',
  path: '/buyers',
  tags: ['Buyers'],
  summary: 'List buyers, newest first',
  security: [{ bearerAuth: [] }],
  middleware: secured('buyers.read'),
  parameters: accountHeaderParameters,
  request: { query: pageQuerySchema },
  responses: { 200: { description: 'A page', content: { 'application/json': { schema: pageSchema(buyerSchema, 'Buyers') } } }, ...errorResponses },
});

export function buyerRoutes(hook: Hook): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: hook });
  app.openapi(list, (c) => {
    const query = c.req.valid('query');
    const page = c.get('sandbox').stores.buyers.page(c.get('account').id, pageRequest(query));
    return c.json(pageEnvelope(page, query.limit, buyerView), 200);
  });
  return app;
}
