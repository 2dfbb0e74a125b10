/**
 * What the go-live report hears, and from where: each webhook attempt the dispatcher records,
 * each outcome the transactions reach, and each refund's webhook. This module turns those
 * into the report's observations (`domain/go-live-tracker.ts`); the report hears of an
 * outcome or a refund only after its unit of work commits.
 */
import type { Delivery, Transaction } from '../../core/domain/entities.js';
import type { ObservedAttempt, ObservedOutcome } from './go-live-observations.js';
import type {
  DeliveriesRepo,
  Outbox,
  RecordedAttempt as DomainRecordedAttempt,
  SubscriptionsRepo,
  TransactionsRepo,
  UnitOfWork,
} from '../../core/domain/ports.js';

/** An attempt as the dispatcher reports it once recorded (only the delivery's fields the report reads). */
export type RecordedAttempt = DomainRecordedAttempt<Pick<Delivery, 'id' | 'account_id' | 'kind' | 'resource_id' | 'fault'>>;

export interface GoLiveWiringDeps {
  report: {
    attempt(attempt: ObservedAttempt): void;
    outcome(outcome: ObservedOutcome): void;
    refund(accountId: string, partial: boolean): void;
  };
  uow: Pick<UnitOfWork, 'afterCommit'>;
  transactions: Pick<TransactionsRepo, 'refundById'>;
  subscriptions: Pick<SubscriptionsRepo, 'byId'>;
  deliveries: Pick<DeliveriesRepo, 'forResource'>;
  /** `--notification-url`: where a transaction without its own URL sends its webhooks. */
  defaultNotificationUrl: string | undefined;
}

export interface GoLiveWiring {
  /** For the dispatcher's `onAttempt`. */
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
}: GoLiveWiringDeps): GoLiveWiring {
  return {
    onAttempt({ delivery: d, number, ok, status, contacted, timedOut, durationMs }) {
      report.attempt({
        accountId: d.account_id,
        deliveryId: d.id,
        kind: d.kind,
        transactionId: d.kind === 'payment' ? d.resource_id : (transactions.refundById(d.resource_id)?.transaction_id ?? d.resource_id),
        fault: d.fault,
        number,
        ok,
        contacted,
        status,
        timedOut,
        durationMs,
        originalAcknowledged:
          d.fault === 'duplicate' && deliveries.forResource(d.resource_id).some((o) => o.fault === null && o.status === 'delivered'),
      });
    },
    onResolved(tx) {
      const outcome = outcomeOf(tx);
      uow.afterCommit(() => report.outcome(outcome));
    },
    reportingRefunds(outbox) {
      const refund = (...args: Parameters<Outbox['refund']>): void => {
        outbox.refund(...args);
        const [tx, made] = args;
        uow.afterCommit(() => report.refund(tx.account_id, made.amount < tx.amount));
      };
      return { ...outbox, refund };
    },
  };

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
