/** Handlers of the webhook delivery log: a page of deliveries (one account's or all, attempts without bodies), one delivery, and a resend. */
import type { Delivery } from '../../../core/domain/entities.js';
import { notFound } from '../../../core/domain/errors.js';
import type { AccountDirectory } from '../../../core/auth/account.js';
import type { DeliveryQueries } from '../../../core/domain/queries.js';
import { pageEnvelope, pageRequest } from '../../../core/http/pagination.js';
import { accountOr404, type ControlHandler } from '../../../core/http/control-route-parts.js';
import type { DeliveryViews } from '../delivery-views.js';
import type { Delivery as DeliveryView, DeliverySummary } from './deliveries.schemas.js';
import type { GetRoute, ListRoute, ResendRoute } from './deliveries.routes.js';

/** Queues a delivery again now: same body, fresh timestamp and signature; undefined when there is none. */
export interface DeliveryResender {
  resend(id: string): Delivery | undefined;
}

/** What the delivery routes use. */
export interface DeliveryControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  deliveries: Pick<DeliveryQueries, 'byId' | 'page' | 'pageAll'>;
  dispatcher: DeliveryResender;
  views: DeliveryViews;
}

/** A delivery as a list shows it: each attempt without its request and response bodies. */
export function deliverySummary(delivery: DeliveryView): DeliverySummary {
  return { ...delivery, attempts: delivery.attempts.map(({ response_body: _response, ...attempt }) => attempt) };
}

export function deliveryHandlers(deps: DeliveryControlDeps) {
  const summary = (row: Delivery): DeliverySummary => deliverySummary(deps.views.delivery(row));
  const list: ControlHandler<ListRoute> = (c) => {
    const query = c.req.valid('query');
    const account = accountOr404(deps.accounts, query.account_id);
    const scope = { list: '_sandbox/deliveries', scope: account?.id ?? '*' };
    const req = pageRequest(query, scope);
    const page = account ? deps.deliveries.page(account.id, req) : deps.deliveries.pageAll(req);
    return c.json(pageEnvelope(page, query.limit, summary, scope), 200);
  };

  const get: ControlHandler<GetRoute> = (c) => {
    const { id } = c.req.valid('param');
    const row = deps.deliveries.byId(id);
    if (!row) throw notFound(`Delivery ${id} not found`);
    return c.json(deps.views.delivery(row), 200);
  };

  const resend: ControlHandler<ResendRoute> = (c) => {
    const { id } = c.req.valid('param');
    const row = deps.dispatcher.resend(id);
    if (!row) throw notFound(`Delivery ${id} not found`);
    return c.json(deps.views.delivery(row), 202);
  };

  return { list, get, resend };
}
