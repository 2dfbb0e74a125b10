/** The go-live report: it subscribes to every logged /v4 request, and answers `GET /_sandbox/report`. */
import type { RouteContext } from '../../core/http/route-context.js';
import { reportControlRoutes } from './control/report.index.js';
import type { GoLiveTracker } from './go-live-tracker.js';
import { goLiveObserver } from './request-observer.js';

export function register(ctx: RouteContext, goLive: Pick<GoLiveTracker, 'request' | 'undelivered' | 'notTheMerchants' | 'report'>): void {
  const { queries, clock } = ctx.core;
  ctx.subscribeRequests(goLiveObserver({ accounts: queries.accounts, transactions: queries.transactions, goLive, clock }));
  ctx.control.route('/', reportControlRoutes({ accounts: queries.accounts, goLive }));
}
