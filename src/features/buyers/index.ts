/**
 * The buyers feature: the generated buyers and their page. It mounts the page over the buyers
 * it is handed (the accounts feature's, which seeds an account's buyers on their first read):
 * at /v4/buyers, and at /buyers as the spec's pagination example has it (`buyers.api.ts`). This
 * file is its public surface too.
 */
import type { BuyerQueries } from './ports.js';
import type { Feature } from '../../core/http/route-context.js';
import { buyerRoutes } from './buyers.api.js';

export { buyerView } from './buyer-format.js';
export { newBuyer } from './buyer-records.js';
export type { NewBuyer } from './buyer-records.js';
export { buyersStore } from './buyers-store.js';
export { buyerRoutes } from './buyers.api.js';
export { buyerSchema } from './buyers.schemas.js';
export { seedBuyers } from './buyers.js';
export type { Buyer } from './entities.js';
export type { BuyersRepo } from './ports.js';
export { buyersMigrations } from './migrations.js';

export function createBuyersFeature(buyers: BuyerQueries): Feature {
  return {
    register(ctx) {
      const deps = { buyers, secured: ctx.pipeline.secured };
      ctx.api.route('/', buyerRoutes(deps));
      ctx.bare.route('/', buyerRoutes(deps, 'listBuyersWithoutPrefix'));
    },
  };
}
