/** Mounts subscriptions: their /v4 routes and their /_sandbox routes. */
import type { RouteContext } from '../../core/http/route-context.js';
import { subscriptionControlRoutes } from './control/subscriptions.index.js';
import { subscriptionViews } from './control-views.js';
import type { TransactionQueries } from '../transactions/index.js';
import type { SubscriptionQueries } from './ports.js';
import type { SubscriptionService } from './subscriptions.js';
import { subscriptionRoutes } from './subscriptions.api.js';

export function register(
  ctx: RouteContext,
  subscriptions: Pick<SubscriptionService, 'create' | 'cancel'>,
  records: { subscriptions: SubscriptionQueries; transactions: Pick<TransactionQueries, 'forSubscription' | 'refundsOf'> },
): void {
  const { queries, clock, options } = ctx.core;
  ctx.api.route(
    '/',
    subscriptionRoutes({
      queries: records.subscriptions,
      subscriptions,
      pipeline: ctx.pipeline,
      clock,
      restrictedChannelCode: options.restrictedChannelCode,
      baseUrl: ctx.baseUrl,
    }),
  );
  ctx.control.route(
    '/',
    subscriptionControlRoutes({
      accounts: queries.accounts,
      subscriptions: records.subscriptions,
      service: subscriptions,
      views: subscriptionViews({
        baseUrl: () => ctx.core.baseUrl,
        accounts: queries.accounts,
        transactions: records.transactions,
        deliveries: queries.deliveries,
      }),
    }),
  );
}
