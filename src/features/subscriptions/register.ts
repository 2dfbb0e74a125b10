/** Mounts subscriptions: their /v4 routes and their /_sandbox routes. */
import type { Clock } from '../../core/clock/clock.js';
import type { Queries } from '../../core/domain/queries.js';
import type { RouteContext } from '../../core/http/route-context.js';
import { controlViewsOf } from '../control/index.js';
import { subscriptionControlRoutes } from './control/subscriptions.index.js';
import type { SubscriptionService } from './subscriptions.js';
import { subscriptionRoutes } from './subscriptions.api.js';

/** The services subscriptions use. */
export interface SubscriptionFeatureServices {
  queries: Queries;
  subscriptions: Pick<SubscriptionService, 'create' | 'cancel'>;
  clock: Pick<Clock, 'nowMs'>;
  options: { restrictedChannelCode: string };
  baseUrl: string;
}

export function register(ctx: RouteContext<SubscriptionFeatureServices>): void {
  const { queries, subscriptions, clock, options } = ctx.sandbox;
  ctx.api.route(
    '/',
    subscriptionRoutes({
      queries: queries.subscriptions,
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
      subscriptions: queries.subscriptions,
      service: subscriptions,
      views: controlViewsOf(ctx),
    }),
  );
}
