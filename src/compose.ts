/**
 * The composition root: builds every part of a sandbox once, in order, each handed only what
 * it uses. Storage and the unit of work first, then the clock and the change feed, the
 * webhook dispatcher and outbox, the scenario policy, the domain services, and the timed
 * work (webhook retries, scenario steps, subscription billing) on one scheduler. The result
 * is the `Sandbox` the HTTP layer, the server and the CLI use.
 */
import { DEFAULT_RESTRICTED_CHANNEL_CODE, defaultScenarioPath, resolveOptions, servedHosts, type SandboxOptions } from './config.js';
import { createApiKeyService } from './domain/api-keys.js';
import { createClock, isoTimestamp } from './domain/clock.js';
import { DEMO_WEBHOOK_PUBLIC_KEY_PEM } from './domain/demo-credentials.js';
import { SandboxEvents } from './domain/events.js';
import { GoLiveTracker } from './domain/go-live-tracker.js';
import { createMerchantAccounts } from './domain/merchant-accounts.js';
import type { ChangeFeed } from './domain/ports.js';
import { Scheduler } from './domain/scheduler.js';
import { createSubscriptionService } from './domain/subscriptions.js';
import { createTransactionService } from './domain/transactions.js';
import { logger, repeatedFailure, type RepeatedFailure } from './log.js';
import type { HttpRecords } from './http/ports.js';
import type { Sandbox } from './sandbox.js';
import { getMeta, setMeta, type Db } from './store/database.js';
import { badRequest, jsonPointer, type ErrorDetail, type SandboxError } from './domain/errors.js';
import { ScenarioError, parseScenario } from './scenarios/load.js';
import { RUNTIME_SOURCE, createScenarioPolicy, loadConfiguredScenarios } from './scenarios/policy.js';
import { createScenarioRunner } from './scenarios/runner.js';
import { apiKeysStore } from './store/api-keys.js';
import { readSnapshot } from './store/snapshot.js';
import { goLiveStore } from './store/go-live.js';
import { openStore } from './store/sqlite-store.js';
import { Dispatcher } from './webhooks/dispatcher.js';
import { createOutbox } from './webhooks/outbox.js';
import { createAsyncSigner, createSigner, webhookSigningOf } from './webhooks/signing.js';
import { connectGuard, refusedDelivery, refusedTarget, type TargetPolicy } from './webhooks/targets.js';

/** A composed sandbox, and its database handle for tests and benchmarks that inspect or seed it. */
export interface ComposedSandbox {
  sandbox: Sandbox;
  /** The HTTP layer's own records (idempotency keys, the request log), for `createApp`. */
  httpRecords: HttpRecords;
  db: Db;
}

/**
 * Builds a sandbox from options (defaults filled in by `resolveOptions`).
 * @throws ScenarioError (one line naming the file and the bad rule) for a bad `--scenario` file.
 * @throws DatabaseOpenError (one line) when the `--db` file cannot be opened or written.
 * @throws SnapshotError (one line) when the `--restore` file is not a snapshot.
 */
export function composeSandbox(input: Partial<SandboxOptions> = {}): ComposedSandbox {
  const options = resolveOptions({ restrictedChannelCode: DEFAULT_RESTRICTED_CHANNEL_CODE, ...input });
  const policy = createScenarioPolicy(loadConfiguredScenarios(options.scenario, defaultScenarioPath()));
  const effectFailures = repeatedFailure('feed.failed', 'an after-commit effect failed');
  const store = openStore(
    options.db,
    (err) => effectFailures.failed(err),
    { requestLogLimit: options.requestLogLimit, deliveryLogLimit: options.deliveryLogLimit },
    options.restore === undefined ? undefined : readSnapshot(options.restore),
  );
  const { repos, uow } = store;
  const clock = createClock(store.clockOffsetMs());

  const events = new SandboxEvents();
  const feed: ChangeFeed = {
    emit(type, accountId, data) {
      if (!events.listened) return; // the feed costs nothing while no panel is open
      const at = isoTimestamp(clock.nowMs());
      uow.afterCommit(() => events.emit({ type, account_id: accountId, data, at }));
    },
  };

  let baseUrl = options.publicUrl ?? `http://${options.host}:${options.port}`;
  const ownHosts = servedHosts(options);
  const targets: TargetPolicy = {
    allowHosts: options.webhookAllowHosts,
    own() {
      const port = Number(new URL(baseUrl).port);
      return Number.isInteger(port) && port > 0 ? { port, hosts: ownHosts } : undefined;
    },
  };
  const signing = webhookSigningOf(options);
  // The go-live report: aggregates fed by the dispatcher, the outbox, outcomes and the HTTP layer.
  const goLiveState = goLiveStore(store.db, (err) => logger.error('report.failed', 'saving the go-live report failed', { err }));
  const goLive = new GoLiveTracker({
    repo: goLiveState,
    slowHandlerMs: Math.min(5000, options.deliveryTimeoutMs / 2),
    timeoutMs: options.deliveryTimeoutMs,
    now: () => isoTimestamp(clock.nowMs()),
    onChange: (accountId) => feed.emit('report.changed', accountId, {}),
  });
  // Logged once per run of failures, not once each (a full disk: issue 22).
  const deliveryCrashes = repeatedFailure('delivery.crashed', 'delivery failed unexpectedly; webhook deliveries back off and retry');
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
    onAttempt: ({ delivery: d, number, ok, status, contacted, timedOut, durationMs }) =>
      goLive.attempt({
        accountId: d.account_id,
        deliveryId: d.id,
        kind: d.kind,
        transactionId: d.kind === 'payment' ? d.resource_id : (repos.transactions.refundById(d.resource_id)?.transaction_id ?? d.resource_id),
        fault: d.fault,
        number,
        ok,
        contacted,
        status,
        timedOut,
        durationMs,
        originalAcknowledged: d.fault === 'duplicate' && repos.deliveries.forResource(d.resource_id).some((o) => o.fault === null && o.status === 'delivered'),
      }),
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
    outbox: {
      ...outbox,
      refund(tx, refund, simulated) {
        outbox.refund(tx, refund, simulated);
        uow.afterCommit(() => goLive.refund(tx.account_id, refund.amount < tx.amount));
      },
    },
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
    startPageUrl: () => `${baseUrl}/`,
    onChargeError: (id, err) => logger.error('subscription.charge.failed', `charge of subscription ${id} failed; no further charges`, { err }),
  });
  transactions.onResolved((tx) => {
    const sub = tx.subscription_id === null ? undefined : repos.subscriptions.byId(tx.account_id, tx.subscription_id);
    const outcome = {
      accountId: tx.account_id,
      transactionId: tx.id,
      status: tx.status === 'SUCCEEDED' ? ('SUCCEEDED' as const) : ('FAILED' as const),
      noTarget: (tx.notification_url ?? options.notificationUrl ?? null) === null,
      linkExpired: tx.status === 'FAILED' && tx.link_expires_at !== null && (tx.resolved_at ?? 0) >= tx.link_expires_at,
      renewal: sub !== undefined && sub.state.first_charge_id !== null && sub.state.first_charge_id !== tx.id,
    };
    uow.afterCommit(() => goLive.outcome(outcome));
  });
  const accounts = createMerchantAccounts({ clock, uow, accounts: repos.accounts, buyers: repos.buyers, feed, seed: options.seed, keyPool: options.keyPool });
  const apiKeys = createApiKeyService({ nowMs: () => clock.nowMs(), uow, apiKeys: apiKeysStore(store.db), accounts: repos.accounts, feed });

  const schedulerFailures = new Map<string, RepeatedFailure>(); // the ticker runs each work 4 times a second
  const scheduler = new Scheduler({
    clock,
    uow,
    saveOffset: (ms) => store.saveClockOffset(ms),
    onError: (work, err) => {
      let failures = schedulerFailures.get(work);
      if (!failures) schedulerFailures.set(work, (failures = repeatedFailure('scheduler.failed', `${work} failed`)));
      failures.failed(err);
    },
  });
  scheduler.register(dispatcher);
  scheduler.register(
    createScenarioRunner({
      uow,
      scheduledSteps: repos.scheduledSteps,
      transactions,
      onStepError: (step, err) => logger.error('scenario.step.failed', `scenario step ${step.action.kind} on ${step.resource_id} failed`, { err }),
    }),
  );
  scheduler.register(subscriptions.billing);
  scheduler.register(transactions.linkExpiry);

  accounts.ensureDemo();
  const ticker = options.ticker ? setInterval(() => scheduler.tick(), 250) : undefined;
  ticker?.unref();

  const sandbox: Sandbox = {
    options,
    clock,
    stores: { ...repos, ...store.httpRecords, buyers: accounts.buyers },
    queries: { ...repos, buyers: accounts.buyers }, // buyers are seeded on their first read
    events,
    transactions,
    subscriptions,
    accounts,
    apiKeys,
    scenarios: policy,
    dispatcher,
    webhookFaults: { inject: (transactionId, request) => outbox.injectFault(transactionId, request) },
    webhookPublicKeyPem: DEMO_WEBHOOK_PUBLIC_KEY_PEM,
    goLive,
    webhookTargetRefused: (url) => refusedTarget(url, targets),
    webhookConnectRefused: connectGuard(targets),
    get baseUrl() {
      return baseUrl;
    },
    set baseUrl(url: string) {
      baseUrl = url;
    },
    emit: (type, accountId, data) => feed.emit(type, accountId, data),
    atomically: (work) => uow.run(work),
    async advanceClock(seconds, { waitForWebhooks = true } = {}) {
      // Each slice of steps saves the offset with its own work, so the disk never runs ahead or behind.
      const steps = await scheduler.advance(seconds, { waitForIo: waitForWebhooks });
      // The steps do not wait for their webhooks (they go out alongside); the answer does, unless
      // asked not to: a merchant's test checks its handler right after the call.
      if (waitForWebhooks) {
        dispatcher.nudge();
        await dispatcher.idle();
      }
      feed.emit('clock.advanced', null, { now: isoTimestamp(clock.nowMs()), offset_ms: clock.offsetMs(), steps });
      return steps;
    },
    loadScenario(json) {
      try {
        const scenario = parseScenario(json, RUNTIME_SOURCE);
        const { replaced } = policy.addRuntime(scenario);
        feed.emit('scenarios.changed', null, { loaded: scenario.name, replaced });
        return { scenario: policy.describe().find((s) => s.origin === 'runtime' && s.name === scenario.name)!, replaced };
      } catch (err) {
        if (err instanceof ScenarioError) throw scenarioRejected(err);
        throw err;
      }
    },
    removeScenario(name) {
      const removed = policy.removeRuntime(name);
      if (removed) feed.emit('scenarios.changed', null, { removed: [name] });
      return removed;
    },
    clearScenarios() {
      const count = policy.clearRuntime();
      if (count > 0) feed.emit('scenarios.changed', null, { removed_count: count });
      return count;
    },
    advanceClockInline: (seconds) => scheduler.advanceInline(seconds),
    snapshot: () => store.snapshot(),
    appliedFixtures: {
      has: (hash) => getMeta(store.db, `fixtures_applied:${hash}`) !== undefined,
      add: (hash) => setMeta(store.db, `fixtures_applied:${hash}`, isoTimestamp(clock.nowMs())),
    },
    reset({ rewindClock = false } = {}) {
      scheduler.interrupt(); // an advance under way stops: it would move the clock back where it was going
      uow.run(() => {
        store.wipe();
        accounts.reseedBuyers();
        if (rewindClock) {
          clock.rewind();
          store.saveClockOffset(0);
        }
      });
      goLive.clear();
      feed.emit('sandbox.reset', null, { rewound_clock: rewindClock });
    },
    drainWebhooks: (graceMs) => dispatcher.drain(graceMs),
    async close() {
      if (ticker) clearInterval(ticker);
      accounts.stopKeyPool();
      await dispatcher.idle();
      dispatcher.close();
      if (options.db !== ':memory:') accounts.seedOwedBuyers(); // the file keeps them for the next start
      goLiveState.flush();
      store.close();
    },
  };
  return { sandbox, httpRecords: store.httpRecords, db: store.db };
}

/** A scenario the control API was given that the loader rejects: 400 with its one-line message and a detail per problem. */
function scenarioRejected(err: ScenarioError): SandboxError {
  const details: ErrorDetail[] = err.problems.map((problem) => ({
    type: problem.message.startsWith('missing') ? 'missing' : 'value_error',
    pointer: jsonPointer(problem.path),
    message: problem.message,
    location: 'body',
  }));
  return badRequest(err.message, details);
}
