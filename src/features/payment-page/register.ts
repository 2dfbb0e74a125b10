/** Mounts the hosted payment page at /pay. */
import type { Queries } from '../../core/domain/queries.js';
import type { RouteContext } from '../../core/http/route-context.js';
import type { SubscriptionService } from '../subscriptions/index.js';
import type { TransactionService } from '../transactions/index.js';
import type { ScenarioRules } from './deps.js';
import { paymentPageRoutes } from './routes.js';

/** The services the payment page uses. */
export interface PaymentPageFeatureServices {
  queries: Queries;
  transactions: Pick<TransactionService, 'resolve' | 'payWithCard' | 'expireLinkIfDue'>;
  subscriptions: Pick<SubscriptionService, 'registerPaymentMethod'>;
  scenarios: ScenarioRules;
  goLive: { customerCancelled(accountId: string): void };
}

export function register(ctx: RouteContext<PaymentPageFeatureServices>): void {
  const { queries, transactions, subscriptions, scenarios, goLive } = ctx.sandbox;
  ctx.pages.route(
    '/pay',
    paymentPageRoutes({
      transactions: queries.transactions,
      subscriptions: queries.subscriptions,
      accounts: queries.accounts,
      scheduledSteps: queries.scheduledSteps,
      payments: transactions,
      trials: subscriptions,
      scenarios,
      customerCancelled: (accountId) => goLive.customerCancelled(accountId),
    }),
  );
}
