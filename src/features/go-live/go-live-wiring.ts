/**
 * What the go-live report hears, and from where: each webhook attempt the dispatcher records,
 * each outcome the transactions reach, and each refund's webhook. This module turns those
 * into the report's observations (`go-live-tracker.ts`); the report hears of an
 * outcome or a refund only after its unit of work commits.
 */
import type { Delivery } from '../../core/domain/entities.js';
import type { Outbox, Transaction, TransactionsRepo } from '../transactions/index.js';
import type { ObservedAttempt, ObservedOutcome } from './go-live-observations.js';
import type { DeliveriesRepo, RecordedAttempt as DomainRecordedAttempt, UnitOfWork } from '../../core/domain/ports.js';

/** An attempt as the dispatcher reports it once recorded (only the delivery's fields the report reads). */
export type RecordedAttempt = DomainRecordedAttempt<Pick<Delivery, 'id' | 'account_id' | 'kind' | 'resource_id' | 'fault' | 'canary'>>;

export interface GoLiveWiringDeps {
  report: {
    attempt(attempt: ObservedAttempt): void;
    outcome(outcome: ObservedOutcome): void;
    refund(accountId: string, partial: boolean): void;
    /** Marks a transaction or a subscription as not the merchant's. */
    notTheMerchants(accountId: string, id: string): void;
    isNotTheMerchants(accountId: string, id: string | null): boolean;
  };
  /** Whether the code running now is the work of a request the report skips (the conformance kit's), while it runs. */
  inRequestNotTheMerchants(): boolean;
  uow: Pick<UnitOfWork, 'afterCommit'>;
  transactions: Pick<TransactionsRepo, 'refundById'>;
  /** A subscription's first charge (its later charges are renewals); subscriptions answer it, handed in. */
  subscriptions: { byId(accountId: string, id: string): { state: { first_charge_id: string | null } } | undefined };
  deliveries: Pick<DeliveriesRepo, 'forResource'>;
  /** `--notification-url`: where a transaction without its own URL sends its webhooks. */
  defaultNotificationUrl: string | undefined;
}

export interface GoLiveWiring {
  /** Whether an attempt's delivery is about a transaction that is not the merchant's. */
  notTheMerchants(attempt: RecordedAttempt): boolean;
  /** For the dispatcher's `onAttempt`: nothing of an attempt that is not the merchant's. */
  onAttempt(attempt: RecordedAttempt): void;
  /** For `transactions.onResolved`: the outcome, reported after the commit. */
  onResolved(tx: Transaction): void;
  /** The outbox, with each refund's webhook also reported (after the commit). */
  reportingRefunds<O extends Pick<Outbox, 'refund'>>(outbox: O): O;
}

export function createGoLiveWiring({
  report,
  uow,
  transactions,
  subscriptions,
  deliveries,
  defaultNotificationUrl,
  inRequestNotTheMerchants,
}: GoLiveWiringDeps): GoLiveWiring {
  /** The transaction a delivery is about (a refund's: the refunded one). */
  const transactionOf = (d: RecordedAttempt['delivery']): string =>
    d.kind === 'payment' ? d.resource_id : (transactions.refundById(d.resource_id)?.transaction_id ?? d.resource_id);
  const notTheMerchants = ({ delivery: d }: RecordedAttempt): boolean => report.isNotTheMerchants(d.account_id, transactionOf(d));
  return {
    notTheMerchants,
    onAttempt(attempt) {
      if (notTheMerchants(attempt)) return;
      const { delivery: d, number, ok, status, contacted, timedOut, durationMs } = attempt;
      report.attempt({
        accountId: d.account_id,
        deliveryId: d.id,
        kind: d.kind,
        transactionId: transactionOf(d),
        fault: d.fault,
        number,
        ok,
        contacted,
        status,
        timedOut,
        durationMs,
        originalAcknowledged:
          d.fault === 'duplicate' && deliveries.forResource(d.resource_id).some((o) => o.fault === null && o.status === 'delivered'),
        canary: d.canary === 1,
      });
    },
    onResolved(tx) {
      // Marked inside the unit of work, before the commit queues its webhook's first attempt.
      if (!theMerchants(tx)) return;
      const outcome = outcomeOf(tx);
      uow.afterCommit(() => report.outcome(outcome));
    },
    reportingRefunds(outbox) {
      const refund = (...args: Parameters<Outbox['refund']>): void => {
        outbox.refund(...args);
        const [tx, made] = args;
        if (inRequestNotTheMerchants() || report.isNotTheMerchants(tx.account_id, tx.id)) return;
        uow.afterCommit(() => report.refund(tx.account_id, made.amount < tx.amount));
      };
      return { ...outbox, refund };
    },
  };

  /**
   * Whether a transaction is the merchant's: not when it was created by a request the report
   * skips, or belongs to a subscription that was, or moves now in such a request (then it is
   * marked, with its subscription, so that its later outcomes and deliveries are not heard).
   */
  function theMerchants(tx: Transaction): boolean {
    const inSkipped = inRequestNotTheMerchants();
    if (!inSkipped && !report.isNotTheMerchants(tx.account_id, tx.id) && !report.isNotTheMerchants(tx.account_id, tx.subscription_id))
      return true;
    report.notTheMerchants(tx.account_id, tx.id);
    if (inSkipped && tx.subscription_id !== null) report.notTheMerchants(tx.account_id, tx.subscription_id);
    return false;
  }

  /** What the report needs of an outcome, read when it is reached (inside its unit of work). */
  function outcomeOf(tx: Transaction): ObservedOutcome {
    const sub = tx.subscription_id === null ? undefined : subscriptions.byId(tx.account_id, tx.subscription_id);
    return {
      accountId: tx.account_id,
      transactionId: tx.id,
      status: tx.status === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED',
      noTarget: (tx.notification_url ?? defaultNotificationUrl ?? null) === null,
      subscription: tx.subscription_id !== null,
      linkExpired: tx.status === 'FAILED' && tx.link_expires_at !== null && (tx.resolved_at ?? 0) >= tx.link_expires_at,
      renewal: sub !== undefined && sub.state.first_charge_id !== null && sub.state.first_charge_id !== tx.id,
      atMs: tx.resolved_at ?? tx.updated_at,
    };
  }
}
