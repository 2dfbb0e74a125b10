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

/** The page over `services` (the customer's commands, the scenario rules, the go-live report's Cancel) and the core's queries. */
export function createPaymentPageFeature(
  services: Pick<PaymentPageDeps, 'payments' | 'trials' | 'scenarios' | 'customerCancelled'>,
): Feature {
  return {
    register(ctx) {
      const { queries } = ctx.core;
      ctx.pages.route(
        '/pay',
        paymentPageRoutes({
          ...services,
          transactions: queries.transactions,
          subscriptions: queries.subscriptions,
          accounts: queries.accounts,
          scheduledSteps: queries.scheduledSteps,
        }),
      );
    },
  };
}
