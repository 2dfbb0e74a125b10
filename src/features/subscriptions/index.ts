/**
 * The subscriptions feature: plans, the billing schedule, renewals and retries. It builds the
 * subscription service (its billing a `TimedWork` on the clock) from the core, the transaction
 * service its charges go through and the scenario rules, and mounts its /v4 routes
 * (`subscriptions.api.ts`) and its /_sandbox routes (`control.ts`). This file is its public
 * surface too.
 */
import type { CoreParts } from '../../core/core.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import type { Feature } from '../../core/http/route-context.js';
import type { ScenarioPolicy } from '../scenarios/index.js';
import type { TransactionQueries, TransactionService } from '../transactions/index.js';
import type { SubscriptionQueries, SubscriptionsRepo } from './ports.js';
import { subscriptionControlRoutes } from './control.js';
import { subscriptionViews } from './control-views.js';
import { subscriptionRoutes } from './subscriptions.api.js';
import { createSubscriptionService, type SubscriptionService } from './subscriptions.js';

export { addInterval } from './billing-schedule.js';
export type { ControlSubscription } from './control.schemas.js';
export { subscriptionCalendar } from './subscription-calendar.js';
export { subscriptionView } from './subscription-format.js';
export { subscriptionsStore } from './subscriptions-store.js';
export { subscriptionRoutes } from './subscriptions.api.js';
export { subscriptionCreateDocument, subscriptionCreateSchema } from './subscription-create-schema.js';
export { subscriptionResponseSchema } from './subscription-response-schema.js';
export { collectsMethodDuringTrial, subscriptionActions } from './subscription-terms.js';
export type { SubscriptionService } from './subscriptions.js';
export type { Subscription } from './entities.js';
export type { SubscriptionQueries, SubscriptionsRepo } from './ports.js';
export { subscriptionsMigrations } from './migrations.js';

export interface SubscriptionsFeature extends Feature {
  service: SubscriptionService;
  /** The subscriptions, read-only. */
  queries: SubscriptionQueries;
}

export function createSubscriptionsFeature(
  core: CoreParts,
  deps: {
    /** Each charge is a transaction. */
    transactions: TransactionService;
    /** The charges' records (a subscription's view lists them). */
    transactionQueries: Pick<TransactionQueries, 'forSubscription' | 'refundsOf'>;
    /** The subscriptions' storage. */
    store: SubscriptionsRepo;
    /** The scenario rules of a subscription and its renewals. */
    scenarios: ScenarioPolicy;
  },
): SubscriptionsFeature {
  const { clock, uow, queries, feed, logger } = core;
  const { store } = deps;
  const accounts: AccountDirectory = queries.accounts;
  const service = createSubscriptionService({
    clock,
    uow,
    accounts,
    subscriptions: store,
    transactionService: deps.transactions,
    policy: deps.scenarios,
    feed,
    startPageUrl: () => `${core.baseUrl}/`,
    onChargeError: (id, err) =>
      logger.error('subscription.charge.failed', `charge of subscription ${id} failed; no further charges`, { err }),
  });
  return {
    service,
    queries: store,
    register(ctx) {
      const { queries, clock, options } = ctx.core;
      ctx.api.route(
        '/',
        subscriptionRoutes({
          queries: store,
          subscriptions: service,
          pipeline: ctx.pipeline,
          clock,
          restrictedChannelCode: options.restrictedChannelCode,
          baseUrl: ctx.baseUrl,
        }),
      );
      const views = subscriptionViews({
        baseUrl: () => ctx.core.baseUrl,
        accounts: queries.accounts,
        transactions: deps.transactionQueries,
        deliveries: queries.deliveries,
      });
      ctx.control.route('/', subscriptionControlRoutes({ accounts: queries.accounts, subscriptions: store, service, views }));
    },
  };
}
