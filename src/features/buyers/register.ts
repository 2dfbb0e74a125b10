/** Mounts the buyers' page: at /v4/buyers, and at /buyers as the spec's pagination example has it. */
import type { Queries } from '../../core/domain/queries.js';
import type { RouteContext } from '../../core/http/route-context.js';
import { buyerRoutes } from './buyers.api.js';

export function register(ctx: RouteContext<{ queries: Pick<Queries, 'buyers'> }>): void {
  const deps = { buyers: ctx.sandbox.queries.buyers, secured: ctx.pipeline.secured };
  ctx.api.route('/', buyerRoutes(deps));
  ctx.bare.route('/', buyerRoutes(deps, 'listBuyersWithoutPrefix'));
}
