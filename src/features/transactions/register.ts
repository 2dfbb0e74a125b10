/** Mounts payments and refunds: their /v4 routes and their /_sandbox routes. */
import type { RouteContext } from '../../core/http/route-context.js';
import { transactionControlRoutes } from './control/transactions.index.js';
import { transactionViews } from './control-views.js';
import type { TransactionQueries } from './ports.js';
import type { TransactionService } from './transactions.js';
import { transactionRoutes } from './transactions.api.js';

export function register(
  ctx: RouteContext,
  transactions: Pick<TransactionService, 'create' | 'refund' | 'resolve'>,
  records: TransactionQueries,
): void {
  const { queries } = ctx.core;
  ctx.api.route('/', transactionRoutes({ queries: records, transactions, pipeline: ctx.pipeline, baseUrl: ctx.baseUrl }));
  ctx.control.route(
    '/',
    transactionControlRoutes({
      accounts: queries.accounts,
      transactions: records,
      service: transactions,
      views: transactionViews({
        baseUrl: () => ctx.core.baseUrl,
        accounts: queries.accounts,
        transactions: records,
        deliveries: queries.deliveries,
      }),
    }),
  );
}
