/** The control views of an app, over its query ports and its base URL. */
import type { RouteContext } from '../../core/http/route-context.js';
import { controlViews, type ControlViews } from './views.js';

/** The control records (transactions, deliveries, subscriptions) as the routes of `ctx` show them. */
export function controlViewsOf(ctx: Pick<RouteContext, 'core'>): ControlViews {
  const { queries } = ctx.core;
  return controlViews({
    baseUrl: () => ctx.core.baseUrl,
    accounts: queries.accounts,
    transactions: queries.transactions,
    deliveries: queries.deliveries,
  });
}
