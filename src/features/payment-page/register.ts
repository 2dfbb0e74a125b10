/** Mounts the hosted payment page at /pay. */
import type { Feature, RouteContext } from '../../core/http/route-context.js';
import type { SubscriptionService } from '../subscriptions/index.js';
import type { TransactionService } from '../transactions/index.js';
import type { PaymentPageDeps, ScenarioRules } from './deps.js';
import { paymentPageRoutes } from './routes.js';

/** The services the payment page uses. */
export interface PaymentPageFeatureServices {
  transactions: Pick<TransactionService, 'resolve' | 'payWithCard' | 'expireLinkIfDue'>;
  subscriptions: Pick<SubscriptionService, 'registerPaymentMethod'>;
  scenarios: ScenarioRules;
  /** The go-live report, told of each customer's Cancel. */
  report: { customerCancelled(accountId: string): void };
  /** The payments, subscriptions and scenario steps the page reads, through their features. */
  queries: Pick<PaymentPageDeps, 'transactions' | 'subscriptions' | 'scheduledSteps'>;
}

export function register(
  ctx: RouteContext,
  { transactions, subscriptions, scenarios, report, queries: records }: PaymentPageFeatureServices,
): void {
  const { queries } = ctx.core;
  ctx.pages.route(
    '/pay',
    paymentPageRoutes({
      transactions: records.transactions,
      subscriptions: records.subscriptions,
      accounts: queries.accounts,
      scheduledSteps: records.scheduledSteps,
      payments: transactions,
      trials: subscriptions,
      scenarios,
      customerCancelled: (accountId) => report.customerCancelled(accountId),
    }),
  );
}

/** The payment page over the services it calls. */
export function createPaymentPageFeature(services: PaymentPageFeatureServices): Feature {
  return { register: (ctx) => register(ctx, services) };
}
