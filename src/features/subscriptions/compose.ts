/**
 * The subscriptions feature built from the core and the transaction service its charges go
 * through: the subscription service (its billing a `TimedWork` on the clock) and its routes.
 */
import type { CoreParts } from '../../core/core.js';
import type { ScenarioPolicy } from '../scenarios/index.js';
import type { Feature } from '../../core/http/route-context.js';
import type { TransactionQueries, TransactionService } from '../transactions/index.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { SubscriptionQueries, SubscriptionsRepo } from './ports.js';
import { register } from './register.js';
import { createSubscriptionService, type SubscriptionService } from './subscriptions.js';

/** What subscriptions use of other features. */
export interface SubscriptionsFeatureDeps {
  /** Each charge is a transaction. */
  transactions: TransactionService;
  /** The charges' records (a subscription's view lists them). */
  transactionQueries: Pick<TransactionQueries, 'forSubscription' | 'refundsOf'>;
  /** The subscriptions' storage. */
  store: SubscriptionsRepo;
  /** The scenario rules of a subscription and its renewals. */
  scenarios: ScenarioPolicy;
}

export interface SubscriptionsFeature extends Feature {
  service: SubscriptionService;
  /** The subscriptions, read-only. */
  queries: SubscriptionQueries;
}

export function createSubscriptionsFeature(
  core: CoreParts,
  { transactions, transactionQueries, store, scenarios }: SubscriptionsFeatureDeps,
): SubscriptionsFeature {
  const { clock, uow, queries, feed, logger } = core;
  const accounts: AccountDirectory = queries.accounts;
  const service = createSubscriptionService({
    clock,
    uow,
    accounts,
    subscriptions: store,
    transactionService: transactions,
    policy: scenarios,
    feed,
    startPageUrl: () => `${core.baseUrl}/`,
    onChargeError: (id, err) =>
      logger.error('subscription.charge.failed', `charge of subscription ${id} failed; no further charges`, { err }),
  });
  return { service, queries: store, register: (ctx) => register(ctx, service, { subscriptions: store, transactions: transactionQueries }) };
}
