/**
 * What the payment page reads and calls, and nothing more: read-only query ports, the domain
 * commands a customer's step performs, and the loaded scenario rules (for the test-card hint).
 * The feature's `index.ts` builds it from the core and the services it calls; a test hands in fakes.
 */
import type { AccountDirectory } from '../../core/auth/account.js';
import type { SubscriptionQueries, SubscriptionService } from '../subscriptions/index.js';
import type { ScenarioMatch, ScheduledStepQueries } from '../scenarios/index.js';
import type { TransactionQueries, TransactionService } from '../transactions/index.js';

/** The loaded scenarios, as far as the card form's test-card hint reads them. */
export interface ScenarioRules {
  describe(): ReadonlyArray<{
    rules: ReadonlyArray<{ name: string; description: string | null; match: Pick<ScenarioMatch, 'card_number' | 'applies_to'> }>;
  }>;
}

export interface PaymentPageDeps {
  transactions: Pick<TransactionQueries, 'byIdAnyAccount'>;
  subscriptions: Pick<SubscriptionQueries, 'byIdAnyAccount'>;
  accounts: Pick<AccountDirectory, 'byId'>;
  /** Whether a scenario step is to decide a payment on the clock (the page then waits). */
  scheduledSteps: ScheduledStepQueries;
  /** Outcomes set by the customer (Pay, card or not, and Cancel), and a link past its 24 hours failed by the domain. */
  payments: Pick<TransactionService, 'resolve' | 'payWithCard' | 'expireLinkIfDue'>;
  /** A trial subscription's page puts the customer's method on file. */
  trials: Pick<SubscriptionService, 'registerPaymentMethod'>;
  scenarios: ScenarioRules;
  /** Tells the go-live report that a customer pressed Cancel on a payment of this account. */
  customerCancelled(accountId: string): void;
}
