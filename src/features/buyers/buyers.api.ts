/**
 * GET /v4/buyers (and GET /buyers, as in the spec's pagination example): faker buyers, cursor
 * pages, and the borrowed API's filters `search` (display_name or external_identifier
 * contains it, any letter case) and `external_identifier` (exactly). The same route is
 * mounted twice, so each mount names its own operationId.
 */
import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { BuyerQueries } from './ports.js';
import type { Secured } from '../../core/http/auth.js';
import type { ApiEnv } from '../../core/http/env.js';
import { buyerView } from './buyer-format.js';
import { pageEnvelope, pageQuerySchema, pageRequest, pageSchema } from '../../core/http/pagination.js';
import { createRouter } from '../../core/http/router.js';
import { buyerSchema } from './buyers.schemas.js';
import { accountHeaderParameters, errorResponses } from '../../core/http/schemas.js';

/** An optional text filter; an empty value (`?search=`) is no filter. */
const filter = (description: string, example: string) =>
  z
    .preprocess((v) => (v === '' ? undefined : v), z.string().max(255, { message: 'must be at most 255 characters' }).optional())
    .openapi({ description, example });

const buyersQuerySchema = pageQuerySchema.extend({
  search: filter('Only the buyers whose display_name or external_identifier contains this value (any letter case).', 'John'),
  external_identifier: filter('Only the buyers whose external_identifier is exactly this value.', 'buyer-12345'),
});

const list = (operationId: string, secured: Secured) =>
  createRoute({
    method: 'get',
    path: '/buyers',
    tags: ['Buyers'],
    summary: 'List buyers, newest first, or search for a specific buyer',
    description: "Also served without the /v4 prefix, at the base URL's /buyers, as in the spec's pagination example.",
    operationId,
    security: [{ bearerAuth: [] }],
    middleware: secured('buyers.read'),
    parameters: accountHeaderParameters,
    request: { query: buyersQuerySchema },
    responses: {
      200: { description: 'A page', content: { 'application/json': { schema: pageSchema(buyerSchema, 'Buyers') } } },
      ...errorResponses,
    },
  });

/** What the buyer routes use: the buyers' query port and the route guard. */
export interface BuyerRouteDeps {
  buyers: Pick<BuyerQueries, 'page'>;
  secured: Secured;
}

/** The buyer routes; `operationId` names the list operation in the OpenAPI document. */
export function buyerRoutes({ buyers, secured }: BuyerRouteDeps, operationId = 'listBuyers'): OpenAPIHono<ApiEnv> {
  const app = createRouter<ApiEnv>();
  app.openapi(list(operationId, secured), (c) => {
    const { search, external_identifier, ...query } = c.req.valid('query');
    const accountId = c.get('account').id;
    const filters = { ...(search !== undefined && { search }), ...(external_identifier !== undefined && { external_identifier }) };
    // A cursor is tied to the account and the filters of the list that returned it.
    const list = { list: 'buyers', scope: JSON.stringify([accountId, search ?? null, external_identifier ?? null]) };
    const page = buyers.page(accountId, pageRequest(query, list), filters);
    return c.json(pageEnvelope(page, query.limit, buyerView, list), 200);
  });
  return app;
}
