/**
 * The transactions feature built from the core: the webhook outbox (with the scenario rules'
 * webhook faults), the transaction service over it, the scenario steps and link expiry it
 * plays on the clock, and its routes.
 */
import type { CoreParts } from '../../core/core.js';
import type { Delivery, WebhookFault } from '../../core/domain/entities.js';
import type { Transaction } from './entities.js';
import type { Outbox, TransactionQueries, TransactionsRepo } from './ports.js';
import type { ScenarioPolicy, ScheduledStepsRepo } from '../scenarios/index.js';
import type { TimedWork } from '../../core/clock/timed-work.js';
import type { Feature } from '../../core/http/route-context.js';
import { createScenarioRunner } from '../scenarios/index.js';
import { createOutbox, type FaultingOutbox, type FaultRequest } from './outbox.js';
import { register } from './register.js';
import { createTransactionService, type TransactionService } from './transactions.js';

/** What the transactions use of other features. */
export interface TransactionsFeatureDeps {
  /** The loaded scenario rules: outcomes, scripts, and the webhook faults of a rule. */
  scenarios: ScenarioPolicy & { webhookFaults(ruleLabel: string | null): readonly WebhookFault[] };
  /** Hears each outcome reached, and wraps the outbox to hear each refund's webhook (the go-live report). */
  observer: {
    onResolved(tx: Transaction): void;
    reportingRefunds<O extends Pick<Outbox, 'refund'>>(outbox: O): O;
  };
  /** The transactions' storage. */
  store: TransactionsRepo;
  /** The scenario steps' storage (the scenario runner's), where a script's later steps wait. */
  scheduledSteps: ScheduledStepsRepo;
}

export interface TransactionsFeature extends Feature {
  service: TransactionService;
  /** The payments and refunds, read-only. */
  queries: TransactionQueries;
  /** Queues any webhook body as a delivery (the workbench's send). */
  outbox: Pick<FaultingOutbox, 'queue' | 'webhookSubject'>;
  /** Scripted webhook faults on a transaction (control API, panel). */
  webhookFaults: {
    /**
     * Queues copies of the transaction's webhooks that play `kind` (`seconds` for `delayed`);
     * returns them. 404 unknown transaction; 409 when it has no webhook (or refund) yet.
     */
    inject(transactionId: string, request: FaultRequest): Delivery[];
  };
  /** Scenario steps scheduled on the clock (a `then` of a rule). */
  scenarioSteps: TimedWork;
}

export function createTransactionsFeature(
  core: CoreParts,
  { scenarios, observer, store, scheduledSteps }: TransactionsFeatureDeps,
): TransactionsFeature {
  const { options, clock, uow, deliveries, feed, dispatcher, logger } = core;
  const outbox = createOutbox({
    clock,
    uow,
    deliveries,
    transactions: store,
    format: options.webhookFormat,
    settlementCurrency: options.settlementCurrency,
    defaultNotificationUrl: options.notificationUrl,
    timeZone: options.webhookTimezone,
    onQueued: () => dispatcher.nudge(),
    onInserted: (id, at) => dispatcher.queued(id, at),
    webhookFaults: (label) => scenarios.webhookFaults(label),
  });
  const service = createTransactionService({
    clock,
    uow,
    transactions: store,
    scheduledSteps,
    outbox: observer.reportingRefunds(outbox),
    feed,
    policy: scenarios,
  });
  service.onResolved((tx) => observer.onResolved(tx));
  const scenarioSteps = createScenarioRunner({
    uow,
    scheduledSteps,
    transactions: service,
    inAccount: (accountId, work) => clock.inAccount(accountId, work),
    onStepError: (step, err) =>
      logger.error('scenario.step.failed', `scenario step ${step.action.kind} on ${step.resource_id} failed`, { err }),
  });
  return {
    service,
    queries: store,
    outbox,
    webhookFaults: { inject: (transactionId, request) => outbox.injectFault(transactionId, request) },
    scenarioSteps,
    register: (ctx) => register(ctx, service, store),
  };
}
