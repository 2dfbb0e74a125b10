/**
 * The payment-page feature: the hosted payment page at /pay (`routes.ts`), over the ports of
 * `ports.ts`: the core's read-only queries, and the commands and rules it is handed. This file
 * is its public surface too.
 */
import type { Feature } from '../../core/http/route-context.js';
import type { PaymentPageDeps } from './ports.js';
import { paymentPageRoutes } from './routes.js';

export type { PaymentPageDeps } from './ports.js';
export { paymentPageRoutes } from './routes.js';

/** The page over `services` (the customer's commands, the scenario rules, the go-live report's Cancel, the records it reads) and the core's accounts. */
export function createPaymentPageFeature(
  services: Pick<PaymentPageDeps, 'payments' | 'trials' | 'scenarios' | 'customerCancelled'> & {
    /** The payments, subscriptions and scenario steps the page reads, through their features. */
    queries: Pick<PaymentPageDeps, 'transactions' | 'subscriptions' | 'scheduledSteps'>;
  },
): Feature {
  return {
    register(ctx) {
      const { queries } = ctx.core;
      ctx.pages.route(
        '/pay',
        paymentPageRoutes({
          payments: services.payments,
          trials: services.trials,
          scenarios: services.scenarios,
          customerCancelled: services.customerCancelled,
          ...services.queries,
          accounts: queries.accounts,
        }),
      );
    },
  };
}
