/** The go-live report: it observes every logged /v4 request, and answers `GET /_sandbox/report`. */
import type { Clock } from '../../core/clock/clock.js';
import type { Queries } from '../../core/domain/queries.js';
import type { RouteContext } from '../../core/http/route-context.js';
import { reportControlRoutes } from './control/report.index.js';
import type { GoLiveTracker } from './go-live-tracker.js';
import { goLiveObserver } from './request-observer.js';

/** The services the report uses. */
export interface GoLiveFeatureServices {
  queries: Pick<Queries, 'accounts' | 'transactions'>;
  goLive: Pick<GoLiveTracker, 'request' | 'report'>;
  clock: Pick<Clock, 'nowMs'>;
}

export function register(ctx: RouteContext<GoLiveFeatureServices>): void {
  const { queries, goLive, clock } = ctx.sandbox;
  ctx.observe(
    goLiveObserver({ accounts: queries.accounts, transactions: queries.transactions, goLive, clock, faultPlayedOn: ctx.faultPlayedOn }),
  );
  ctx.control.route('/', reportControlRoutes({ accounts: queries.accounts, goLive }));
}
