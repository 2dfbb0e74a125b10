/**
 * Handlers of the control API's transactions. Reads go through the query ports; settle, fail
 * and refund go to the domain's service, whose SandboxError (404 unknown transaction, 409
 * illegal transition, 400 nothing to refund) is the answer.
 */
import type { AccountDirectory } from '../../../core/auth/account.js';
import type { TransactionQueries } from '../ports.js';
import { notFound } from '../../../core/domain/errors.js';
import type { TransactionService } from '../transactions.js';
import { refundView } from '../refund-format.js';
import { pageEnvelope, pageRequest } from '../../../core/http/pagination.js';
import { accountOr404, type ControlHandler } from '../../../core/http/control-route-parts.js';
import type { TransactionViews } from '../control-views.js';
import type { GetOneRoute, ListRoute, OutcomeRoute, RefundRoute } from './transactions.routes.js';

/** What the transaction routes use. */
export interface TransactionControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  transactions: Pick<TransactionQueries, 'page' | 'byIdAnyAccount'>;
  service: Pick<TransactionService, 'resolve' | 'refund'>;
  views: TransactionViews;
}

export function transactionHandlers(deps: TransactionControlDeps) {
  const list: ControlHandler<ListRoute> = (c) => {
    const query = c.req.valid('query');
    const account = accountOr404(deps.accounts, query.account_id)!;
    const scope = { list: '_sandbox/transactions', scope: account.id };
    const page = deps.transactions.page(account.id, pageRequest(query, scope));
    return c.json(
      pageEnvelope(page, query.limit, (row) => deps.views.transaction(row, account.mode), scope),
      200,
    );
  };

  const getOne: ControlHandler<GetOneRoute> = (c) => {
    const { id } = c.req.valid('param');
    const tx = deps.transactions.byIdAnyAccount(id);
    if (!tx) throw notFound(`Transaction ${id} not found`);
    return c.json(deps.views.transactionDetail(tx), 200);
  };

  const outcome =
    (to: 'SUCCEEDED' | 'FAILED'): ControlHandler<OutcomeRoute> =>
    (c) =>
      c.json(deps.views.transactionOf(deps.service.resolve(c.req.valid('param').id, to)), 200);

  const refund: ControlHandler<RefundRoute> = (c) =>
    c.json(refundView(deps.service.refund(c.req.valid('param').id, c.req.valid('json') ?? {})), 201);

  return { list, getOne, settle: outcome('SUCCEEDED'), fail: outcome('FAILED'), refund };
}
