/** Handlers of the control API's subscriptions: a page with their charges, and cancel now. */
import type { AccountDirectory } from '../../../core/auth/account.js';
import type { SubscriptionQueries } from '../ports.js';
import type { SubscriptionService } from '../subscriptions.js';
import { pageEnvelope, pageRequest } from '../../../core/http/pagination.js';
import { accountOr404, type ControlHandler } from '../../../core/http/control-route-parts.js';
import type { SubscriptionViews } from '../control-views.js';
import type { CancelRoute, ListRoute } from './subscriptions.routes.js';

/** What the subscription routes use. */
export interface SubscriptionControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  subscriptions: Pick<SubscriptionQueries, 'page' | 'pageAll'>;
  service: Pick<SubscriptionService, 'cancel'>;
  views: SubscriptionViews;
}

export function subscriptionHandlers(deps: SubscriptionControlDeps) {
  const list: ControlHandler<ListRoute> = (c) => {
    const query = c.req.valid('query');
    accountOr404(deps.accounts, query.account_id);
    const scope = { list: '_sandbox/subscriptions', scope: query.account_id ?? '*' };
    const req = pageRequest(query, scope);
    const page = query.account_id === undefined ? deps.subscriptions.pageAll(req) : deps.subscriptions.page(query.account_id, req);
    return c.json(pageEnvelope(page, query.limit, deps.views.subscription, scope), 200);
  };

  const cancel: ControlHandler<CancelRoute> = (c) => {
    const { id } = c.req.valid('param');
    // The domain decides a missing subscription (404) as it decides the rest.
    return c.json(deps.views.subscription(deps.service.cancel(id)), 200);
  };

  return { list, cancel };
}
