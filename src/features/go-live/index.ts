/**
 * The go-live feature: the go-live report. It builds, from the core, the report's aggregates
 * (saved behind in the database), what it hears (each webhook attempt, each outcome and refund,
 * each logged /v4 request), the reads of a merchant's state URL after an acknowledged payment
 * webhook, and the webhook canary; and it mounts `GET /_sandbox/report` (`control.ts`). This
 * file is its public surface too.
 */
import type { CoreParts } from '../../core/core.js';
import { isoTimestamp } from '../../core/clock/clock.js';
import type { Outbox, Transaction, TransactionQueries } from '../transactions/index.js';
import { inRequestNotTheMerchants } from '../../core/http/request-log.js';
import type { Feature } from '../../core/http/route-context.js';
import { repeatedFailure } from '../../core/log.js';
import { createPoster } from '../../core/webhooks/post.js';
import { connectGuard } from '../../core/webhooks/targets.js';
import { webhookCanary as createCanary } from './go-live-canary.js';
import { goLiveStore } from './go-live-store.js';
import { GoLiveTracker } from './go-live-tracker.js';
import { createGoLiveWiring, type GoLiveWiringDeps } from './go-live-wiring.js';
import { reportControlRoutes } from './control.js';
import { goLiveObserver } from './request-observer.js';
import { stateCheck } from './state-check.js';

export { reportQuerySchema } from './control.js';
export type { CoverageScenario, GoLiveFindingCode, GoLiveSeverity } from './go-live.js';
export type { CoverageEntry, GoLiveEvidence, GoLiveFinding, GoLiveReport } from './report.schemas.js';
export { goLiveObserver, warnIgnoredWebhookField } from './request-observer.js';
export { runReport } from './report-command.js';
export { formatJunitSuite } from './report-format.js';
export type { JunitCase } from './report-format.js';
export { GO_LIVE_STATE_TABLE } from './go-live-store.js';

export interface GoLiveFeature extends Feature {
  /** The report's aggregates: `report()` answers `GET /_sandbox/report`; a reset `clear()`s them. */
  report: GoLiveTracker;
  /** Hears each outcome reached (after its commit). */
  onResolved(tx: Transaction): void;
  /** The outbox, with each refund's webhook also reported (after the commit). */
  reportingRefunds<O extends Pick<Outbox, 'refund'>>(outbox: O): O;
  /** Remembers the state URL a check-webhooks run was given for `webhookUrl`: the report then reads it after each acknowledged payment webhook to that URL. */
  rememberStateUrl(webhookUrl: string, stateUrl: string): void;
  /** Writes the aggregates saved behind (before the database closes). */
  flush(): void;
}

export interface GoLiveFeatureDeps {
  /** Whether an account's URLs get a webhook canary (its own setting, else `--webhook-canary`). */
  webhookCanary(accountId: string): boolean;
  /** The transactions' records the report reads (a refund's payment, a payment's status). */
  transactions: Pick<TransactionQueries, 'byId' | 'byIdAnyAccount' | 'refundById'>;
  /** The subscriptions' records the report reads (whether a charge is a renewal). */
  subscriptions: GoLiveWiringDeps['subscriptions'];
}

/** The report over the core and the read ports of the records it reads. */
export function createGoLiveFeature(core: CoreParts, deps: GoLiveFeatureDeps): GoLiveFeature {
  const { options, clock, uow, deliveries, feed, db, logger, targets, dispatcher } = core;
  const { transactions, subscriptions } = deps;
  const saves = repeatedFailure(logger, 'report.failed', 'saving the go-live report failed'); // each flush may fail (a full disk)
  const state = goLiveStore(db, (err) => saves.failed(err));
  const report = new GoLiveTracker({
    repo: state,
    slowHandlerMs: Math.min(5000, options.deliveryTimeoutMs / 2),
    timeoutMs: options.deliveryTimeoutMs,
    now: () => isoTimestamp(clock.nowMs()),
    onChange: (accountId) => feed.emit('report.changed', accountId, {}),
  });
  const wiring = createGoLiveWiring({
    report,
    uow,
    transactions,
    subscriptions,
    deliveries,
    defaultNotificationUrl: options.notificationUrl,
    inRequestNotTheMerchants,
  });
  // The state URLs given to check-webhooks, by webhook URL: the report reads them after each acknowledged payment webhook.
  const stateUrls = new Map<string, string>();
  const stateReader = createPoster({ timeoutMs: options.deliveryTimeoutMs, maxFreePerOrigin: 1, guard: connectGuard(targets) });
  const checkState = stateCheck({
    stateUrlFor: (url) => stateUrls.get(url),
    deliveries,
    transactions,
    // Read under the same connect-time guard as every delivery (no redirects followed).
    read: async (url) => {
      const { status, text } = await stateReader.post(url, { accept: 'application/json' }, '', 'GET');
      return { status, text };
    },
    mismatch: (accountId, deliveryId, transactionId) => report.stateMismatch(accountId, deliveryId, transactionId),
  });
  const canary = createCanary({
    enabled: (accountId) => deps.webhookCanary(accountId),
    deliveries,
    uow,
    clock,
    queued: (id, at) => dispatcher.queued(id, at),
    nudge: () => dispatcher.nudge(),
  });
  core.observeAttempts((attempt) => {
    // A delivery of what the conformance kit created: no finding, no coverage, no state read, no canary.
    if (wiring.notTheMerchants(attempt)) return;
    wiring.onAttempt(attempt);
    void checkState(attempt);
    canary(attempt);
  });
  return {
    report,
    onResolved: (tx) => wiring.onResolved(tx),
    reportingRefunds: (outbox) => wiring.reportingRefunds(outbox),
    rememberStateUrl: (webhookUrl, stateUrl) => void stateUrls.set(webhookUrl, stateUrl),
    flush: () => state.flush(),
    register(ctx) {
      // It subscribes to every logged /v4 request, and answers `GET /_sandbox/report`.
      const { queries, clock } = ctx.core;
      ctx.subscribeRequests(goLiveObserver({ accounts: queries.accounts, transactions, goLive: report, clock }));
      ctx.control.route('/', reportControlRoutes({ accounts: queries.accounts, goLive: report }));
    },
  };
}
