/** Mounts the buyers' page: at /v4/buyers, and at /buyers as the spec's pagination example has it. */
import type { BuyerQueries } from './ports.js';
import type { Feature, RouteContext } from '../../core/http/route-context.js';
import { buyerRoutes } from './buyers.api.js';

export function register(ctx: RouteContext, buyers: BuyerQueries): void {
  const deps = { buyers, secured: ctx.pipeline.secured };
  ctx.api.route('/', buyerRoutes(deps));
  ctx.bare.route('/', buyerRoutes(deps, 'listBuyersWithoutPrefix'));
}

/** The buyers' page over `buyers` (the accounts feature's, which seeds an account's buyers on their first read). */
export function createBuyersFeature({ buyers }: { buyers: BuyerQueries }): Feature {
  return { register: (ctx) => register(ctx, buyers) };
}
