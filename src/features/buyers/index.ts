/** The buyers feature: what other parts of the sandbox may use of it. */
export { buyerView } from './buyer-format.js';
export { newBuyer } from './buyer-records.js';
export type { NewBuyer } from './buyer-records.js';
export { buyersStore } from './buyers-store.js';
export { buyerRoutes } from './buyers.api.js';
export { buyerSchema } from './buyers.schemas.js';
export { seedBuyers } from './buyers.js';
export { createBuyersFeature } from './register.js';
export type { Buyer } from './entities.js';
export type { BuyersRepo } from './ports.js';
export { buyersMigrations } from './migrations.js';
