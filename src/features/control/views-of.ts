/** The control views of an app, over its query ports and its base URL. */
import type { Queries } from '../../core/domain/queries.js';
import type { RouteContext } from '../../core/http/route-context.js';
import { controlViews, type ControlViews } from './views.js';

/** The control records (transactions, deliveries, subscriptions) as the routes of `ctx` show them. */
export function controlViewsOf(ctx: RouteContext<{ queries: Queries; baseUrl: string }>): ControlViews {
  const { queries } = ctx.sandbox;
  return controlViews({
    baseUrl: () => ctx.sandbox.baseUrl,
    accounts: queries.accounts,
    transactions: queries.transactions,
    deliveries: queries.deliveries,
  });
}
