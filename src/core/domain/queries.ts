/**
 * Read-only query ports: what the outer layers (the HTTP routes, the panel's views) may read
 * of the sandbox's records. Each is the read half of a repository of `ports.ts`, so a router
 * given one cannot write; writes go through the domain's services, which check their own
 * preconditions.
 */
import type { DeliveriesRepo } from './ports.js';
import type { AccountQueries } from '../../features/accounts/index.js';
import type { SubscriptionQueries } from '../../features/subscriptions/index.js';
import type { ScheduledStepQueries } from '../../features/scenarios/index.js';
import type { TransactionQueries } from '../../features/transactions/index.js';

export type DeliveryQueries = Pick<DeliveriesRepo, 'byId' | 'page' | 'pageAll' | 'forResource' | 'attemptsOf' | 'matching'>;

/**
 * Every query port the core hands out. The buyers are read through the accounts feature, which
 * seeds an account's buyers on their first read.
 */
export interface Queries {
  accounts: AccountQueries;
  transactions: TransactionQueries;
  subscriptions: SubscriptionQueries;
  scheduledSteps: ScheduledStepQueries;
  deliveries: DeliveryQueries;
}
