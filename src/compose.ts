/**
 * The composition root. First the core: storage and the unit of work, the clock and the change
 * feed, the webhook dispatcher, the scheduler, API keys, the target checks (`Core`, `CoreParts`
 * in `core/core.ts`). Then each feature builds its own services once, in dependency order, with
 * the factory its `index.ts` exports, from the core and the public services of the features it
 * depends on: scenarios, accounts, the go-live report, transactions, subscriptions, webhooks,
 * the sandbox's own controls (reset and the clock), the webhook checker, fixtures, the
 * forwarder, buyers and the payment page. Then the timed work on the scheduler, and the
 * lifecycle (shutdown, the key pool, start-up fixtures) the server drives. `createApp`
 * registers the features' routes.
 */
import { createChangeFeed } from './core/domain/change-feed.js';
import { createLifecycle, type Lifecycle } from './core/lifecycle.js';
import { DEFAULT_RESTRICTED_CHANNEL_CODE, resolveOptions, servedHosts, type SandboxOptions } from './core/config.js';
import { createApiKeyService } from './core/auth/api-keys.js';
import { apiKeysStore } from './core/auth/api-keys-store.js';
import { createClock, storedClockPastBound } from './core/clock/clock.js';
import { createAccountClocks } from './core/clock/account-clocks.js';
import { Scheduler } from './core/clock/scheduler.js';
import type { Core, CoreParts } from './core/core.js';
import { DEMO_WEBHOOK_PUBLIC_KEY_PEM } from './core/credentials/demo-credentials.js';
import { DatabaseOpenError, type Db } from './core/db/database.js';
import { readSnapshot } from './core/db/snapshot.js';
import { SandboxEvents } from './core/domain/events.js';
import type { RecordedAttempt } from './core/domain/ports.js';
import { idempotencyExpiry } from './core/http/idempotency.js';
import type { HttpRecords } from './core/http/ports.js';
import { createLogger, repeatedFailure, repeatedFailures, type Logger } from './core/log.js';
import type { RealTime } from './core/webhooks/crash-backoff.js';
import { Dispatcher } from './core/webhooks/dispatcher.js';
import type { WebhookPoster } from './core/webhooks/post.js';
import { createAsyncSigner, createSigner, webhookSigningOf } from './core/webhooks/signing.js';
import { connectGuard, refusedDelivery, refusedTarget, type TargetPolicy } from './core/webhooks/targets.js';
import { createAccountsFeature, type AccountsFeature } from './features/accounts/index.js';
import { createBuyersFeature } from './features/buyers/index.js';
import { createCheckWebhooksFeature } from './features/check-webhooks/index.js';
import { createForwarderFeature, type ForwarderFeature } from './features/forwarder/index.js';
import { createFixturesFeature, type FixturesFeature, type PreparedStartupFixtures } from './features/fixtures/index.js';
import type { FixtureObjects } from './features/fixtures/index.js';
import { createGoLiveFeature, type GoLiveFeature } from './features/go-live/index.js';
import * as panel from './features/panel/index.js';
import * as paymentMethods from './features/payment-methods/index.js';
import { createPaymentPageFeature } from './features/payment-page/index.js';
import { createSandboxFeature, type SandboxFeature } from './features/sandbox/index.js';
import { createScenariosFeature, loadScenarioPolicy, type ScenariosFeature } from './features/scenarios/index.js';
import { createSubscriptionsFeature, type SubscriptionsFeature } from './features/subscriptions/index.js';
import { createTransactionsFeature, deliveryResources, type TransactionsFeature } from './features/transactions/index.js';
import { createWebhooksFeature, type WebhooksFeature } from './features/webhooks/index.js';
import type { Feature } from './core/http/route-context.js';
import { SANDBOX_SCHEMA } from './sandbox-schema.js';
import { openStore, storedClockOffsets, type FeatureStores } from './sqlite-store.js';

/** The features of a sandbox, each with the services it offers and its `register`. */
export interface Features {
  scenarios: ScenariosFeature;
  goLive: GoLiveFeature;
  transactions: TransactionsFeature;
  subscriptions: SubscriptionsFeature;
  accounts: AccountsFeature;
  webhooks: WebhooksFeature;
  sandbox: SandboxFeature;
  checkWebhooks: Feature;
  fixtures: FixturesFeature;
  forwarder: ForwarderFeature;
  buyers: Feature;
  paymentMethods: Feature;
  paymentPage: Feature;
  panel: Feature;
}

/** How a sandbox starts and stops, as the server drives it. */
export interface SandboxLifecycle extends Lifecycle {
  /** Starts making account key pairs ahead of time (`--key-pool`). */
  fillKeyPool(): void;
  /** The start-up fixtures (`--fixtures`) this database does not hold yet, checked; undefined when none. */
  prepareFixtures(): PreparedStartupFixtures | undefined;
  /** Applies them (once the base URL is known). */
  applyFixtures(startup: PreparedStartupFixtures): Promise<FixtureObjects>;
}

/** What the /v4 pipeline uses of the features: the scenario rules' API faults, each account's load settings. */
export interface PipelineServices {
  scenarios: ScenariosFeature['policy'];
  loadSettings: AccountsFeature['loadSettings'];
}

/** A composed sandbox, and its database handle for tests and benchmarks that inspect or seed it. */
export interface ComposedSandbox {
  core: Core;
  features: Features;
  lifecycle: SandboxLifecycle;
  pipeline: PipelineServices;
  /** The HTTP layer's own records (idempotency keys, the request log), for `createApp`. */
  httpRecords: HttpRecords;
  /** Each feature's storage, for tests and benchmarks that seed or inspect records (no router gets them). */
  stores: FeatureStores;
  /** The logger everything of this sandbox writes to (the one handed in, or a new text logger). */
  logger: Logger;
  db: Db;
}

/** What a sandbox is given besides its options: things that are not configuration values. */
export interface SandboxRuntime {
  /** Where it logs (default: a new text logger at level info, to stdout and stderr). */
  logger?: Logger;
  /**
   * How webhooks are POSTed to merchants (default: node:http(s) with kept-alive connections per
   * origin, under the target guard); tests hand one that delivers in memory.
   */
  webhookPoster?: WebhookPoster;
  /**
   * Real time for the webhook dispatcher's crash back-off and full passes (default:
   * performance.now and unref'd timers); tests hand one that shortens the back-off's waits.
   */
  realTime?: RealTime;
}

/**
 * Builds a sandbox from options (defaults filled in by `resolveOptions`).
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad `--scenario` file.
 * @throws DatabaseOpenError (one line) when the `--db` file cannot be opened or written, or holds a clock past 9999-12-31T23:59:59Z.
 * @throws SnapshotError (one line) when the `--restore` file is not a snapshot, or holds such a clock.
 */
export function composeSandbox(input: Partial<SandboxOptions> = {}, runtime: SandboxRuntime = {}): ComposedSandbox {
  const { logger = createLogger() } = runtime;
  const options = resolveOptions({ restrictedChannelCode: DEFAULT_RESTRICTED_CHANNEL_CODE, ...input });
  const policy = loadScenarioPolicy(options);
  const core = composeCore(options, logger, runtime.webhookPoster, runtime.realTime);
  const { stores } = core.store;

  const scenarios = createScenariosFeature(core, policy);
  const accounts = createAccountsFeature(core, { store: stores.accounts, buyers: stores.buyers });
  const goLive = createGoLiveFeature(core, {
    webhookCanary: (accountId) => accounts.loadSettings.webhookCanary(accountId),
    // The report sits below the transactions and subscriptions: it is handed read ports of their records.
    transactions: stores.transactions,
    subscriptions: stores.subscriptions,
  });
  const transactions = createTransactionsFeature(core, {
    scenarios: policy,
    observer: goLive,
    store: stores.transactions,
    scheduledSteps: scenarios.steps,
  });
  const subscriptions = createSubscriptionsFeature(core, {
    transactions: transactions.service,
    transactionQueries: transactions.queries,
    scenarios: policy,
    store: stores.subscriptions,
  });
  const webhooks = createWebhooksFeature(core, transactions.outbox);
  const sandbox = createSandboxFeature(core, { accounts: accounts.service, report: goLive.report });
  const checkWebhooks = createCheckWebhooksFeature(goLive);
  const fixtures = createFixturesFeature(core, {
    transactions: transactions.service,
    subscriptions: subscriptions.service,
    accounts: accounts.service,
    sandbox: sandbox.service,
    queries: { accounts: accounts.queries, transactions: transactions.queries, subscriptions: subscriptions.queries },
  });
  const forwarder = createForwarderFeature(core);
  const buyers = createBuyersFeature(accounts.service.buyers); // seeded on their first read
  const paymentPage = createPaymentPageFeature({
    payments: transactions.service,
    trials: subscriptions.service,
    scenarios: policy,
    customerCancelled: (accountId) => goLive.report.customerCancelled(accountId),
    queries: { transactions: transactions.queries, subscriptions: subscriptions.queries, scheduledSteps: scenarios.steps },
  });

  // The timed work on the sandbox clock, in this order: webhook retries, scenario steps, renewals, payment links.
  const { scheduler, dispatcher } = core;
  scheduler.register(dispatcher);
  scheduler.register(transactions.scenarioSteps);
  scheduler.register(subscriptions.service.billing);
  scheduler.register(transactions.service.linkExpiry);
  scheduler.registerUpkeep(idempotencyExpiry({ records: core.store.httpRecords.idempotency, clock: core.clock }));
  const ticker = options.ticker ? setInterval(() => scheduler.tick(), 250).unref() : undefined;

  const lifecycle = createLifecycle({
    stopTicker: () => clearInterval(ticker),
    accounts: { stopKeyPool: () => accounts.service.stopKeyPool(), storeOwed: () => accounts.service.seedOwedBuyers() },
    persistent: options.db !== ':memory:',
    logger,
    webhooks: dispatcher,
    report: goLive,
    store: core.store,
  });
  return {
    core,
    features: {
      scenarios,
      goLive,
      transactions,
      subscriptions,
      accounts,
      webhooks,
      sandbox,
      checkWebhooks,
      fixtures,
      forwarder,
      buyers,
      paymentMethods,
      paymentPage,
      panel,
    },
    lifecycle: {
      ...lifecycle,
      fillKeyPool: () => accounts.service.fillKeyPool(),
      prepareFixtures: () => fixtures.prepareStartup(),
      applyFixtures: (startup) => fixtures.applyStartup(startup),
    },
    pipeline: { scenarios: policy, loadSettings: accounts.loadSettings },
    httpRecords: core.store.httpRecords,
    stores,
    logger,
    db: core.db,
  };
}

/** The core: storage, the clock, the change feed, the dispatcher, the scheduler, API keys, the target checks. */
function composeCore(
  options: SandboxOptions,
  logger: Logger,
  poster: WebhookPoster | undefined,
  time: RealTime | undefined,
): CoreParts & { store: ReturnType<typeof openStore> } {
  const effectFailures = repeatedFailure(logger, 'feed.failed', 'an after-commit effect failed');
  const accountClocks = createAccountClocks();
  // A file whose clock is past the latest time a clock may show is refused before it is used.
  const pastBound = (db: Db): string | null => storedClockPastBound(storedClockOffsets(db), Date.now());
  const store = openStore(
    options.db,
    (err) => effectFailures.failed(err),
    { requestLogLimit: options.requestLogLimit, deliveryLogLimit: options.deliveryLogLimit },
    options.restore === undefined ? undefined : readSnapshot(options.restore, SANDBOX_SCHEMA, pastBound),
    accountClocks,
  );
  const refused = pastBound(store.db);
  if (refused !== null) {
    store.close();
    throw new DatabaseOpenError(`the database file ${options.db} holds ${refused}; start with another --db file`);
  }
  const { stores, uow } = store;
  for (const [id, ms] of Object.entries(store.accountClockOffsets())) accountClocks.setOffset(id, ms);
  const clock = createClock(store.clockOffsetMs(), Date.now, accountClocks);
  const events = new SandboxEvents();
  const feed = createChangeFeed({ events, uow, nowMs: () => clock.nowMs() });

  // Where the sandbox is reached: --public-url, or the listening address once the server sets it.
  // Its own port and names are never a webhook target (once it has a port).
  const address = { url: options.publicUrl ?? `http://${options.host}:${options.port}` };
  const ownHosts = servedHosts(options);
  const ownAddress = () => {
    const port = Number(new URL(address.url).port);
    return Number.isInteger(port) && port > 0 ? { port, hosts: ownHosts } : undefined;
  };
  const targets: TargetPolicy = { allowHosts: options.webhookAllowHosts, own: ownAddress };
  const signing = webhookSigningOf(options);
  // Logged once per run of failures, not once each.
  const deliveryCrashes = repeatedFailure(
    logger,
    'delivery.crashed',
    'delivery failed unexpectedly; webhook deliveries back off and retry',
  );
  const attemptObservers: ((attempt: RecordedAttempt) => void)[] = [];
  const dispatcher = new Dispatcher({
    clock,
    deliveries: store.deliveries,
    resources: deliveryResources(stores.transactions),
    feed,
    sign: createSigner(signing),
    signAsync: createAsyncSigner(signing),
    timeZone: options.webhookTimezone,
    timeoutMs: options.deliveryTimeoutMs,
    onError: (err) => deliveryCrashes.failed(err),
    onRecovered: () => deliveryCrashes.recovered(),
    refuseTarget: (url) => refusedDelivery(url, targets),
    connectGuard: connectGuard(targets),
    ...(poster ? { poster } : {}),
    ...(time ? { time } : {}),
    onAttempt: (attempt) => {
      for (const observe of attemptObservers) observe(attempt);
    },
  });
  const schedulerFailures = repeatedFailures(logger, 'scheduler.failed', (work) => `${work} failed`); // the ticker runs each work 4 times a second
  const scheduler = new Scheduler({
    clock,
    uow,
    // Inside an account (its own advance) the account's own offset is what moved.
    saveOffset: (ms) => (clock.account() === null ? store.saveClockOffset(ms) : store.saveAccountClockOffsets(accountClocks.entries())),
    onError: (work, err) => schedulerFailures.failed(work, err),
  });
  const apiKeys = createApiKeyService({
    nowMs: () => clock.nowMs(),
    uow,
    apiKeys: apiKeysStore(store.db),
    accounts: stores.accounts,
    feed,
  });

  return {
    options,
    clock,
    queries: { accounts: stores.accounts, deliveries: store.deliveries },
    events,
    emit: (type, accountId, data) => feed.emit(type, accountId, data),
    atomically: (work) => uow.run(work),
    get baseUrl() {
      return address.url;
    },
    set baseUrl(url: string) {
      address.url = url;
    },
    webhookTargetRefused: (url) => refusedTarget(url, targets),
    webhookConnectRefused: connectGuard(targets),
    webhookPublicKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM,
    apiKeys,
    dispatcher,
    observeAttempts: (observer) => void attemptObservers.push(observer),
    snapshot: () => store.snapshot(),
    uow,
    feed,
    deliveries: store.deliveries,
    db: store.db,
    accountClocks,
    scheduler,
    signing,
    targets,
    logger,
    state: {
      wipe: () => store.wipe(),
      // The accounts' own offsets are kept or rewound with the sandbox clock's.
      saveClockOffset: (ms) => {
        store.saveClockOffset(ms);
        store.saveAccountClockOffsets(accountClocks.entries());
      },
    },
    store,
  };
}
