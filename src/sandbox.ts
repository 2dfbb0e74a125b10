/**
 * The sandbox context: options, database, stores, clock, scheduler, change feed and
 * webhook dispatcher, built once by `createSandbox` and shared by every layer. It holds no
 * HTTP code; `createApp` (src/app.ts) puts the routes on top of it.
 */
import { DEFAULT_RESTRICTED_CHANNEL_CODE, resolveOptions, type SandboxOptions } from './config.js';
import { ensureDemoAccounts } from './domain/accounts.js';
import { seedBuyers } from './domain/buyers.js';
import { createClock, isoTimestamp, type Clock } from './domain/clock.js';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from './domain/demo-credentials.js';
import { SandboxEvents } from './domain/events.js';
import { Scheduler } from './domain/scheduler.js';
import { installSubscriptionBilling } from './domain/subscriptions.js';
import type { TransactionCreatedHook, TransactionResolvedHook } from './domain/transactions.js';
import { installScenarioEngine, loadConfiguredScenarios, type ScenarioEngine } from './scenarios/engine.js';
import { accountsStore, type AccountsStore } from './store/accounts.js';
import { buyersStore, type BuyersStore } from './store/buyers.js';
import { getMeta, openDatabase, setMeta, type Db } from './store/database.js';
import { deliveriesStore, type DeliveriesStore } from './store/deliveries.js';
import { idempotencyStore, type IdempotencyStore } from './store/idempotency.js';
import { requestLogStore, type RequestLogStore } from './store/request-log.js';
import { scheduledStepsStore, type ScheduledStepsStore } from './store/scheduled-steps.js';
import { subscriptionsStore, type SubscriptionsStore } from './store/subscriptions.js';
import { transactionsStore, type TransactionsStore } from './store/transactions.js';
import { Dispatcher } from './webhooks/dispatcher.js';
import { createSigner } from './webhooks/signing.js';

export interface Stores {
  accounts: AccountsStore;
  buyers: BuyersStore;
  transactions: TransactionsStore;
  idempotency: IdempotencyStore;
  requestLog: RequestLogStore;
  deliveries: DeliveriesStore;
  subscriptions: SubscriptionsStore;
  scheduledSteps: ScheduledStepsStore;
}

export interface Sandbox {
  options: SandboxOptions;
  db: Db;
  clock: Clock;
  stores: Stores;
  events: SandboxEvents;
  scheduler: Scheduler;
  dispatcher: Dispatcher;
  /** The loaded scenario rules and the steps they schedule (`scenarios/engine.ts`). */
  scenarios: ScenarioEngine;
  hooks: { transactionCreated: TransactionCreatedHook[]; transactionResolved: TransactionResolvedHook[] };
  webhookPublicKeyPem: string;
  /** Base URL the sandbox is reached at (for payment_url); set by the server once it listens. */
  baseUrl: string;
  /** Emits a change on the feed with the sandbox-clock time. */
  emit(type: string, accountId: string | null, data: unknown): void;
  /** Starts the deliveries that are due now, without waiting for them. */
  kickDeliveries(): void;
  /** Moves the sandbox clock forward, running all that falls due; persists the offset. */
  advanceClock(seconds: number): Promise<number>;
  /** Empties all data but the accounts, and seeds the buyers again. */
  reset(): void;
  /** Stops timers and in-flight work, closes the database. */
  close(): Promise<void>;
}

const CLOCK_OFFSET = 'clock_offset_ms';

/**
 * Builds a sandbox from options (defaults filled in by `resolveOptions`).
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad `--scenario` file.
 */
export function createSandbox(input: Partial<SandboxOptions> = {}): Sandbox {
  const options = resolveOptions({ restrictedChannelCode: DEFAULT_RESTRICTED_CHANNEL_CODE, ...input });
  const scenarios = loadConfiguredScenarios(options.scenario);
  const db = openDatabase(options.db);
  const clock = createClock(Number(getMeta(db, CLOCK_OFFSET) ?? 0));
  const stores: Stores = {
    accounts: accountsStore(db),
    buyers: buyersStore(db),
    transactions: transactionsStore(db),
    idempotency: idempotencyStore(db),
    requestLog: requestLogStore(db),
    deliveries: deliveriesStore(db),
    subscriptions: subscriptionsStore(db),
    scheduledSteps: scheduledStepsStore(db),
  };
  const events = new SandboxEvents();
  const scheduler = new Scheduler(clock);
  const sign = createSigner(
    options.webhookSigning === 'hmac'
      ? { mode: 'hmac', secret: options.webhookSecret ?? '' }
      : { mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM },
  );

  const sandbox: Sandbox = {
    options,
    db,
    clock,
    stores,
    events,
    scheduler,
    dispatcher: undefined as unknown as Dispatcher,
    scenarios: undefined as unknown as ScenarioEngine,
    hooks: { transactionCreated: [], transactionResolved: [] },
    webhookPublicKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM,
    baseUrl: options.publicUrl ?? `http://${options.host}:${options.port}`,
    emit(type, accountId, data) {
      if (events.listened) events.emit({ type, account_id: accountId, data, at: isoTimestamp(clock.nowMs()) });
    },
    kickDeliveries() {
      void sandbox.dispatcher.runDue(clock.nowMs(), false);
    },
    async advanceClock(seconds) {
      const steps = await scheduler.advance(seconds);
      setMeta(db, CLOCK_OFFSET, String(clock.offsetMs()));
      sandbox.emit('clock.advanced', null, { now: isoTimestamp(clock.nowMs()), offset_ms: clock.offsetMs(), steps });
      return steps;
    },
    reset() {
      db.transaction(() => {
        for (const table of ['buyers', 'transactions', 'refunds', 'idempotency_keys', 'request_log', 'deliveries',
          'delivery_attempts', 'subscriptions', 'scheduled_steps']) {
          db.exec(`DELETE FROM ${table}`);
        }
        for (const account of stores.accounts.all()) seedBuyers(stores.buyers, account.id, options.seed, clock.nowMs());
      })();
      sandbox.emit('sandbox.reset', null, {});
    },
    async close() {
      if (ticker) clearInterval(ticker);
      await sandbox.dispatcher.idle();
      db.close();
    },
  };
  sandbox.dispatcher = new Dispatcher(sandbox, sign);
  scheduler.register(sandbox.dispatcher);
  sandbox.scenarios = installScenarioEngine(sandbox, scenarios);
  installSubscriptionBilling(sandbox);

  db.transaction(() => {
    for (const id of ensureDemoAccounts(stores.accounts, clock.nowMs())) {
      seedBuyers(stores.buyers, id, options.seed, clock.nowMs());
    }
  })();

  const ticker = options.ticker ? setInterval(() => scheduler.tick(), 250) : undefined;
  ticker?.unref();
  return sandbox;
}
