/**
 * A subscription as the control API shows it: the /v4 record extended with its charges, the
 * actions legal now (the domain's own rule) and its next charge time. Built over read-only
 * query ports (`subscriptionViews(ports)`).
 */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { Subscription as SubscriptionRow } from './entities.js';
import type { TransactionQueries } from '../transactions/index.js';
import { transactionViews, type TransactionViewPorts } from '../transactions/index.js';
import type { ControlSubscription } from './control.schemas.js';
import { subscriptionView } from './subscription-format.js';
import { subscriptionActions } from './subscription-terms.js';

/** What the subscription view reads: the transaction views' ports, and a subscription's charges. */
export interface SubscriptionViewPorts extends TransactionViewPorts {
  transactions: Pick<TransactionQueries, 'refundsOf' | 'forSubscription'>;
}

/** The control record of a subscription row. */
export interface SubscriptionViews {
  /** A subscription with its charges (oldest first), the actions legal now and its next charge time. */
  subscription(row: SubscriptionRow): ControlSubscription;
}

/** The subscription view over `ports`. */
export function subscriptionViews(ports: SubscriptionViewPorts): SubscriptionViews {
  const { transaction } = transactionViews(ports);
  return {
    subscription: (row) => {
      const mode = ports.accounts.byId(row.account_id)!.mode;
      return {
        ...subscriptionView(row, ports.baseUrl(), mode),
        charges: ports.transactions.forSubscription(row.id).map((tx) => transaction(tx, mode)),
        allowed_actions: subscriptionActions(row),
        next_charge_at: row.next_charge_at === null ? null : isoTimestamp(row.next_charge_at),
      };
    },
  };
}
