/**
 * Read-only query ports of the core's own records: what the outer layers (the HTTP routes, the
 * panel's views) may read of them. Each is the read half of a port of `ports.ts` (or of
 * `auth/account.ts`), so a router given one cannot write. A feature's own records are read
 * through that feature.
 */
import type { AccountDirectory } from '../auth/account.js';
import type { DeliveriesRepo } from './ports.js';

export type DeliveryQueries = Pick<DeliveriesRepo, 'byId' | 'page' | 'pageAll' | 'forResource' | 'attemptsOf' | 'matching'>;

/** Every query port the core hands out: the accounts as the core looks them up, and the webhook deliveries. */
export interface Queries {
  accounts: AccountDirectory;
  deliveries: DeliveryQueries;
}
