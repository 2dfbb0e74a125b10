/**
 * The subscriptions feature built from the core and the transaction service its charges go
 * through: the subscription service (its billing a `TimedWork` on the clock) and its routes.
 */
import type { CoreParts } from '../../core/core.js';
import type { ScenarioPolicy } from '../scenarios/index.js';
import type { Feature } from '../../core/http/route-context.js';
import type { TransactionService } from '../transactions/index.js';
import { register } from './register.js';
import { createSubscriptionService, type SubscriptionService } from './subscriptions.js';

/** What subscriptions use of other features. */
export interface SubscriptionsFeatureDeps {
  /** Each charge is a transaction. */
  transactions: TransactionService;
  /** The scenario rules of a subscription and its renewals. */
  scenarios: ScenarioPolicy;
}

export interface SubscriptionsFeature extends Feature {
  service: SubscriptionService;
}

export function createSubscriptionsFeature(core: CoreParts, { transactions, scenarios }: SubscriptionsFeatureDeps): SubscriptionsFeature {
  const { clock, uow, repos, feed, logger } = core;
  const service = createSubscriptionService({
    clock,
    uow,
    accounts: repos.accounts,
    subscriptions: repos.subscriptions,
    transactionService: transactions,
    policy: scenarios,
    feed,
    startPageUrl: () => `${core.baseUrl}/`,
    onChargeError: (id, err) =>
      logger.error('subscription.charge.failed', `charge of subscription ${id} failed; no further charges`, { err }),
  });
  return { service, register: (ctx) => register(ctx, service) };
}
