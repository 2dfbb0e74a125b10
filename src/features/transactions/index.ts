/**
 * The transactions feature: payments and refunds. It builds, from the core, the scenario rules
 * and the go-live report's observer, the webhook outbox (with the rules' webhook faults), the
 * transaction service over it and the scenario steps it plays on the clock, and mounts its
 * /v4 routes (`transactions.api.ts`) and its /_sandbox routes (`control.ts`). This file is its
 * public surface too.
 */
import type { TimedWork } from '../../core/clock/timed-work.js';
import type { CoreParts } from '../../core/core.js';
import type { Transaction } from './entities.js';
import type { Outbox, TransactionQueries, TransactionsRepo } from './ports.js';
import type { ScenarioPolicy, ScheduledStepsRepo, WebhookFault } from '../scenarios/index.js';
import type { Feature } from '../../core/http/route-context.js';
import { createScenarioRunner } from '../scenarios/index.js';
import { deliveryViews } from '../webhooks/index.js';
import { transactionControlRoutes, webhookFaultControlRoutes } from './control.js';
import { transactionViews } from './control-views.js';
import { createOutbox, type FaultingOutbox } from './outbox.js';
import { transactionRoutes } from './transactions.api.js';
import { createTransactionService, type TransactionService } from './transactions.js';

export { controlRefundRequestSchema, controlTransactionListQuerySchema, controlTransactionSchema } from './control.schemas.js';
export type { ControlTransaction, Refund, TransactionDetail } from './control.schemas.js';
export { transactionViews } from './control-views.js';
export type { TransactionViewPorts } from './control-views.js';
export { refundView } from './refund-format.js';
export { refundableAmount } from './refunds.js';
export { transactionView } from './transaction-format.js';
export { allowedActions, storedPaymentMethod } from './transaction-input.js';
export type { NewTransaction } from './transaction-input.js';
export { transactionsStore } from './transactions-store.js';
export type { TransactionService } from './transactions.js';
export { transactionRoutes } from './transactions.api.js';
export {
  refundCreateSchema,
  refundSchema,
  transactionCreateDocument,
  transactionCreateSchema,
  transactionSchema,
} from './transactions.schemas.js';
export { paymentWebhookBody, refundWebhookBody } from './webhook-bodies.js';
export type { PaymentWebhookStatus } from './webhook-bodies.js';
export type { DeclineReason, Transaction, TransactionOutcome, TransactionStatus } from './entities.js';
export type { Outbox, TransactionQueries, TransactionsRepo } from './ports.js';
export { deliveryResources } from './delivery-resources.js';
export { transactionsMigrations } from './migrations.js';

export interface TransactionsFeature extends Feature {
  service: TransactionService;
  /** The payments and refunds, read-only. */
  queries: TransactionQueries;
  /** Queues any webhook body as a delivery (the workbench's send). */
  outbox: Pick<FaultingOutbox, 'queue' | 'webhookSubject'>;
  /** Scenario steps scheduled on the clock (a `then` of a rule). */
  scenarioSteps: TimedWork;
}

export function createTransactionsFeature(
  core: CoreParts,
  deps: {
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
  },
): TransactionsFeature {
  const { options, clock, uow, deliveries, feed, dispatcher, logger } = core;
  const { scenarios, observer, store, scheduledSteps } = deps;
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
    scenarioSteps,
    register(ctx) {
      const { queries } = ctx.core;
      ctx.api.route('/', transactionRoutes({ queries: store, transactions: service, pipeline: ctx.pipeline, baseUrl: ctx.baseUrl }));
      const views = transactionViews({
        baseUrl: () => ctx.core.baseUrl,
        accounts: queries.accounts,
        transactions: store,
        deliveries: queries.deliveries,
      });
      ctx.control.route('/', transactionControlRoutes({ accounts: queries.accounts, transactions: store, service, views }));
      ctx.control.route('/', webhookFaultControlRoutes({ outbox, views: deliveryViews({ deliveries: queries.deliveries }) }));
    },
  };
}
