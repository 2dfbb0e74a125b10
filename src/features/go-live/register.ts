/** The go-live report: it observes every logged /v4 request, and answers `GET /_sandbox/report`. */
import type { RouteContext } from '../../core/http/route-context.js';
import { reportControlRoutes } from './control/report.index.js';
import type { GoLiveTracker } from './go-live-tracker.js';
import { goLiveObserver, type GoLiveDeps } from './request-observer.js';

export function register(
  ctx: RouteContext,
  goLive: Pick<GoLiveTracker, 'request' | 'undelivered' | 'notTheMerchants' | 'report'>,
  transactions: GoLiveDeps['transactions'],
): void {
  const { queries, clock } = ctx.core;
  ctx.observe(goLiveObserver({ accounts: queries.accounts, transactions, goLive, clock, faultPlayedOn: ctx.faultPlayedOn }));
  ctx.control.route('/', reportControlRoutes({ accounts: queries.accounts, goLive }));
}
