/** Handler of the go-live report: answered from the tracker's aggregates, never from the logs. */
import type { GoLiveTracker } from '../go-live-tracker.js';
import type { AccountDirectory } from '../../../core/auth/account.js';
import { accountOr404, type ControlHandler } from '../../../core/http/control-route-parts.js';
import type { GetRoute } from './report.routes.js';

/** What the report route uses. */
export interface ReportControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  goLive: Pick<GoLiveTracker, 'report'>;
}

export function reportHandlers({ accounts, goLive }: ReportControlDeps) {
  const get: ControlHandler<GetRoute> = (c) => {
    const { account_id: accountId, require_coverage: required } = c.req.valid('query');
    accountOr404(accounts, accountId);
    return c.json(goLive.report(accountId, required), 200);
  };
  return { get };
}
