/**
 * The composition root: builds every part of a sandbox once, in order, each handed only what
 * it uses, and returns them connected. Storage and the unit of work first, then the clock and
 * the change feed, the webhook dispatcher and outbox, the scenario policy, the features'
 * services (transactions, subscriptions, accounts, the go-live report, the sandbox's control,
 * run-time scenarios, shutdown), and the timed work (webhook retries, scenario steps,
 * subscription billing) on one scheduler. The result is the `Sandbox` whose services each
 * feature's `register(ctx)` is handed, and which the server and the CLI use.
 */
import { createChangeFeed } from './core/domain/change-feed.js';
import { createGoLiveWiring, stateCheck } from './features/go-live/index.js';
import { createLifecycle } from './core/lifecycle.js';
import { createSandboxControl } from './features/control/index.js';
import { createScenarioControl } from './features/scenarios/index.js';
import { DEFAULT_RESTRICTED_CHANNEL_CODE, defaultScenarioPath, resolveOptions, servedHosts, type SandboxOptions } from './core/config.js';
import { createApiKeyService } from './core/auth/api-keys.js';
import { createClock, isoTimestamp } from './core/clock/clock.js';
import { createAccountClocks } from './core/clock/account-clocks.js';
import { DEMO_WEBHOOK_PUBLIC_KEY_PEM } from './core/credentials/demo-credentials.js';
import { SandboxEvents } from './core/domain/events.js';
import { GoLiveTracker } from './features/go-live/index.js';
import { createAccountLoadSettings, createMerchantAccounts } from './features/accounts/index.js';

/** Where each account's own rate limit and latency are kept. */
const ACCOUNT_LOAD_SETTINGS = 'account_load_settings';
import { Scheduler } from './core/clock/scheduler.js';
import { idempotencyExpiry } from './core/http/idempotency.js';
import { createSubscriptionService } from './features/subscriptions/index.js';
import { createTransactionService } from './features/transactions/index.js';
import { createLogger, repeatedFailure, repeatedFailures, type Logger } from './core/log.js';
import type { Repositories } from './core/domain/ports.js';
import type { HttpRecords } from './core/http/ports.js';
import type { Sandbox } from './sandbox.js';
import { getMeta, setMeta, type Db } from './core/db/database.js';
import { ScenarioError, parseScenario } from './features/scenarios/index.js';
import { RUNTIME_SOURCE, createScenarioPolicy, loadConfiguredScenarios } from './features/scenarios/index.js';
import { createScenarioRunner } from './features/scenarios/index.js';
import { apiKeysStore } from './core/auth/api-keys-store.js';
import { readSnapshot } from './core/db/snapshot.js';
import { goLiveStore } from './features/go-live/index.js';
import { openStore } from './sqlite-store.js';
import { Dispatcher } from './core/webhooks/dispatcher.js';
import { createPoster } from './core/webhooks/post.js';
import { createOutbox } from './features/transactions/index.js';
import { createSignatureExplainer, createWebhookSender } from './features/webhooks/index.js';
import { createAsyncSigner, createSigner, webhookSigningOf } from './core/webhooks/signing.js';
import { connectGuard, refusedDelivery, refusedTarget, type TargetPolicy } from './core/webhooks/targets.js';

/** A composed sandbox, and its database handle for tests and benchmarks that inspect or seed it. */
export interface ComposedSandbox {
  sandbox: Sandbox;
  /** The HTTP layer's own records (idempotency keys, the request log), for `createApp`. */
  httpRecords: HttpRecords;
  /** The repositories, for tests and benchmarks that seed or inspect records (no router gets them). */
  repos: Repositories;
  /** The logger everything of this sandbox writes to (the one handed in, or a new text logger). */
  logger: Logger;
  db: Db;
}

/** What a sandbox is given besides its options: things that are not configuration values. */
export interface SandboxRuntime {
  /** Where it logs (default: a new text logger at level info, to stdout and stderr). */
  logger?: Logger;
}

/**
 * Builds a sandbox from options (defaults filled in by `resolveOptions`).
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad `--scenario` file.
 * @throws DatabaseOpenError (one line) when the `--db` file cannot be opened or written.
 * @throws SnapshotError (one line) when the `--restore` file is not a snapshot.
 */
export function composeSandbox(input: Partial<SandboxOptions> = {}, { logger = createLogger() }: SandboxRuntime = {}): ComposedSandbox {
  const options = resolveOptions({ restrictedChannelCode: DEFAULT_RESTRICTED_CHANNEL_CODE, ...input });
  const policy = createScenarioPolicy(loadConfiguredScenarios(options.scenario, defaultScenarioPath()));
  const effectFailures = repeatedFailure(logger, 'feed.failed', 'an after-commit effect failed');
  const accountClocks = createAccountClocks();
  const store = openStore(
    options.db,
    (err) => effectFailures.failed(err),
    { requestLogLimit: options.requestLogLimit, deliveryLogLimit: options.deliveryLogLimit },
    options.restore === undefined ? undefined : readSnapshot(options.restore),
    accountClocks,
  );
  const { repos, uow } = store;
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
  // The go-live report: aggregates fed by the dispatcher, the outbox, outcomes and the HTTP layer.
  const goLiveSaves = repeatedFailure(logger, 'report.failed', 'saving the go-live report failed'); // each flush may fail (a full disk)
  const goLiveState = goLiveStore(store.db, (err) => goLiveSaves.failed(err));
  const goLive = new GoLiveTracker({
    repo: goLiveState,
    slowHandlerMs: Math.min(5000, options.deliveryTimeoutMs / 2),
    timeoutMs: options.deliveryTimeoutMs,
    now: () => isoTimestamp(clock.nowMs()),
    onChange: (accountId) => feed.emit('report.changed', accountId, {}),
  });
  const goLiveWiring = createGoLiveWiring({
    report: goLive,
    uow,
    transactions: repos.transactions,
    subscriptions: repos.subscriptions,
    deliveries: repos.deliveries,
    defaultNotificationUrl: options.notificationUrl,
  });
  // Logged once per run of failures, not once each.
  const deliveryCrashes = repeatedFailure(
    logger,
    'delivery.crashed',
    'delivery failed unexpectedly; webhook deliveries back off and retry',
  );
  // The state URLs given to check-webhooks, by webhook URL: the report reads them after each acknowledged payment webhook.
  const stateUrls = new Map<string, string>();
  const stateReader = createPoster({ timeoutMs: options.deliveryTimeoutMs, maxFreePerOrigin: 1, guard: connectGuard(targets) });
  const checkState = stateCheck({
    stateUrlFor: (url) => stateUrls.get(url),
    deliveries: repos.deliveries,
    transactions: repos.transactions,
    // Read under the same connect-time guard as every delivery (no redirects followed).
    read: async (url) => {
      const { status, text } = await stateReader.post(url, { accept: 'application/json' }, '', 'GET');
      return { status, text };
    },
    mismatch: (accountId, deliveryId, transactionId) => goLive.stateMismatch(accountId, deliveryId, transactionId),
  });
  const dispatcher = new Dispatcher({
    clock,
    deliveries: repos.deliveries,
    transactions: repos.transactions,
    feed,
    sign: createSigner(signing),
    signAsync: createAsyncSigner(signing),
    timeZone: options.webhookTimezone,
    timeoutMs: options.deliveryTimeoutMs,
    onError: (err) => deliveryCrashes.failed(err),
    onRecovered: () => deliveryCrashes.recovered(),
    refuseTarget: (url) => refusedDelivery(url, targets),
    connectGuard: connectGuard(targets),
    onAttempt: (attempt) => {
      goLiveWiring.onAttempt(attempt);
      void checkState(attempt);
    },
  });
  const outbox = createOutbox({
    clock,
    uow,
    deliveries: repos.deliveries,
    transactions: repos.transactions,
    format: options.webhookFormat,
    settlementCurrency: options.settlementCurrency,
    defaultNotificationUrl: options.notificationUrl,
    timeZone: options.webhookTimezone,
    onQueued: () => dispatcher.nudge(),
    onInserted: (id, at) => dispatcher.queued(id, at),
    webhookFaults: (label) => policy.webhookFaults(label),
  });

  const transactions = createTransactionService({
    clock,
    uow,
    transactions: repos.transactions,
    scheduledSteps: repos.scheduledSteps,
    outbox: goLiveWiring.reportingRefunds(outbox),
    feed,
    policy,
  });
  const subscriptions = createSubscriptionService({
    clock,
    uow,
    accounts: repos.accounts,
    subscriptions: repos.subscriptions,
    transactions: repos.transactions,
    transactionService: transactions,
    policy,
    feed,
    startPageUrl: () => `${address.url}/`,
    onChargeError: (id, err) =>
      logger.error('subscription.charge.failed', `charge of subscription ${id} failed; no further charges`, { err }),
  });
  transactions.onResolved((tx) => goLiveWiring.onResolved(tx));
  const accounts = createMerchantAccounts({
    clock,
    uow,
    accounts: repos.accounts,
    buyers: repos.buyers,
    feed,
    seed: options.seed,
    keyPool: options.keyPool,
  });
  const apiKeys = createApiKeyService({ nowMs: () => clock.nowMs(), uow, apiKeys: apiKeysStore(store.db), accounts: repos.accounts, feed });

  const schedulerFailures = repeatedFailures(logger, 'scheduler.failed', (work) => `${work} failed`); // the ticker runs each work 4 times a second
  const scheduler = new Scheduler({
    clock,
    uow,
    // Inside an account (its own advance) the account's own offset is what moved.
    saveOffset: (ms) => (clock.account() === null ? store.saveClockOffset(ms) : store.saveAccountClockOffsets(accountClocks.entries())),
    onError: (work, err) => schedulerFailures.failed(work, err),
  });
  scheduler.register(dispatcher);
  scheduler.register(
    createScenarioRunner({
      uow,
      scheduledSteps: repos.scheduledSteps,
      transactions,
      inAccount: (accountId, work) => clock.inAccount(accountId, work),
      onStepError: (step, err) =>
        logger.error('scenario.step.failed', `scenario step ${step.action.kind} on ${step.resource_id} failed`, { err }),
    }),
  );
  scheduler.register(subscriptions.billing);
  scheduler.register(transactions.linkExpiry);
  scheduler.registerUpkeep(idempotencyExpiry({ records: store.httpRecords.idempotency, clock }));

  const loadSettings = createAccountLoadSettings({
    defaults: { rateLimit: options.rateLimit, latency: options.latency },
    accounts: repos.accounts,
    load: () => getMeta(store.db, ACCOUNT_LOAD_SETTINGS),
    save: (text) => setMeta(store.db, ACCOUNT_LOAD_SETTINGS, text),
  });

  accounts.ensureDemo();
  const ticker = options.ticker ? setInterval(() => scheduler.tick(), 250).unref() : undefined;

  const control = createSandboxControl({
    scheduler,
    clock,
    uow,
    state: {
      wipe: () => store.wipe(),
      // The accounts' own offsets are kept or rewound with the sandbox clock's.
      saveClockOffset: (ms) => {
        store.saveClockOffset(ms);
        store.saveAccountClockOffsets(accountClocks.entries());
      },
    },
    buyers: accounts,
    report: goLive,
    webhooks: dispatcher,
    feed,
  });
  const runtimeScenarios = createScenarioControl({
    parse: (json) => parseScenario(json, RUNTIME_SOURCE),
    rejection: (err) => (err instanceof ScenarioError ? err : undefined),
    policy,
    feed,
  });
  const lifecycle = createLifecycle({
    stopTicker: () => clearInterval(ticker),
    accounts,
    persistent: options.db !== ':memory:',
    webhooks: dispatcher,
    report: goLiveState,
    store,
  });

  const sandbox: Sandbox = {
    options,
    clock,
    queries: { ...repos, buyers: accounts.buyers }, // buyers are seeded on their first read
    events,
    transactions,
    subscriptions,
    accounts,
    loadSettings,
    apiKeys,
    scenarios: policy,
    dispatcher,
    webhookFaults: { inject: (transactionId, request) => outbox.injectFault(transactionId, request) },
    webhookPublicKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM,
    rememberStateUrl: (webhookUrl, stateUrl) => void stateUrls.set(webhookUrl, stateUrl),
    workbench: {
      sender: createWebhookSender({
        accounts: repos.accounts,
        defaultUrl: options.notificationUrl,
        targetRefused: (url) => refusedTarget(url, targets),
        queue: (fields) => outbox.queue(fields),
      }),
      explainer: createSignatureExplainer({ signing, publicKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM, deliveries: repos.deliveries }),
    },
    goLive,
    webhookTargetRefused: (url) => refusedTarget(url, targets),
    webhookConnectRefused: connectGuard(targets),
    get baseUrl() {
      return address.url;
    },
    set baseUrl(url: string) {
      address.url = url;
    },
    emit: (type, accountId, data) => feed.emit(type, accountId, data),
    atomically: (work) => uow.run(work),
    control,
    runtimeScenarios,
    snapshot: () => store.snapshot(),
    // Start-up fixtures documents this database holds, by hash, stamped with the sandbox time.
    appliedFixtures: {
      has: (hash) => getMeta(store.db, `fixtures_applied:${hash}`) !== undefined,
      add: (hash) => setMeta(store.db, `fixtures_applied:${hash}`, isoTimestamp(clock.nowMs())),
    },
    ...lifecycle,
  };
  return { sandbox, httpRecords: store.httpRecords, repos, logger, db: store.db };
}
