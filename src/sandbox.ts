/**
 * The sandbox as the outer layers see it (HTTP routes, the server, the CLI): its options,
 * clock, change feed, domain services, application services (`control`, `runtimeScenarios`)
 * and the read-only queries, all as interfaces. `compose.ts` builds one; nothing here knows how.
 */
import type { SandboxControl } from './features/control/index.js';
import type { ScenarioControl } from './features/scenarios/index.js';
import type { SandboxOptions } from './core/config.js';
import type { ApiKeyService } from './core/auth/api-keys.js';
import type { Clock } from './core/clock/clock.js';
import type { Delivery, DeliveryFault } from './core/domain/entities.js';
import type { ChangeType, SandboxEvents } from './core/domain/events.js';
import type { GoLiveTracker } from './features/go-live/index.js';
import type { AccountLoadSettings, MerchantAccounts } from './features/accounts/index.js';
import type { Queries } from './core/domain/queries.js';
import type { SubscriptionService } from './features/subscriptions/index.js';
import type { TransactionService } from './features/transactions/index.js';
import type { SignatureExplainer, WebhookSender } from './features/webhooks/index.js';
import type { ScenarioSummary } from './features/scenarios/index.js';
import type { LoadedScenarioPolicy, ScenarioOrigin } from './features/scenarios/index.js';

export interface Sandbox {
  options: SandboxOptions;
  clock: Clock;
  /** The read-only query ports (no write method). */
  queries: Queries;
  events: SandboxEvents;
  transactions: TransactionService;
  subscriptions: SubscriptionService;
  accounts: MerchantAccounts;
  /** Each account's rate limit and latency (its own, or the options'), for the load rehearsal. */
  loadSettings: AccountLoadSettings;
  /** Restricted API keys of the accounts (mint, list, revoke; auth looks secrets up here). */
  apiKeys: ApiKeyService;
  /** The loaded scenario rules. */
  scenarios: LoadedScenarioPolicy;
  /** Reset and the sandbox clock: `reset`, `advanceClock` (running all that falls due, then waiting for the webhooks it queued unless told not to; the fixtures' advances too). */
  control: SandboxControl;
  /** Scenarios loaded at run time: `loadScenario` (tried before every scenario loaded at start-up; a 400 with the loader's message when bad), `removeScenario`, `clearScenarios`. Not persisted. */
  runtimeScenarios: ScenarioControl<ScenarioSummary & { origin: ScenarioOrigin }>;
  /** The webhook outbox's delivery side. */
  dispatcher: {
    /** Queues a delivery again now, whatever its status: same body, fresh timestamp and signature. */
    resend(id: string): Delivery | undefined;
  };
  /** Scripted webhook faults on a transaction (control API, panel); see `webhooks/outbox.ts`. */
  webhookFaults: {
    /**
     * Queues copies of the transaction's webhooks that play `kind` (`seconds` for `delayed`);
     * returns them. 404 unknown transaction; 409 when it has no webhook (or refund) yet.
     */
    inject(transactionId: string, request: { kind: DeliveryFault; seconds?: number }): Delivery[];
  };
  webhookPublicKeyPem: string;
  /** Remembers the state URL a check-webhooks run was given for `webhookUrl`: the go-live report then reads it after each acknowledged payment webhook to that URL. */
  rememberStateUrl(webhookUrl: string, stateUrl: string): void;
  /** The webhook workbench: send any body signed (`sender`), say why a signature check failed (`explainer`). */
  workbench: { sender: WebhookSender; explainer: SignatureExplainer };
  /** The go-live report's aggregates: the HTTP layer reports each /v4 request and each customer's Cancel; `report()` answers `GET /_sandbox/report`. */
  goLive: Pick<GoLiveTracker, 'request' | 'customerCancelled' | 'report'>;
  /** Why `url` may not receive webhooks (a non-http(s), link-local, metadata or own address, or a host off --webhook-allow-hosts), or null. */
  webhookTargetRefused(url: string): string | null;
  /** Why the sandbox may not connect to `address`:`port` for a webhook (checked at connect time, also by check-webhooks), or null. */
  webhookConnectRefused(address: string, port: number): string | null;
  /** Base URL the sandbox is reached at (for payment_url); set by the server once it listens. */
  baseUrl: string;
  /**
   * Runs `work` in one unit of work: everything it stores commits together or not at all (the
   * domain's own units of work inside become part of it), and the effects they queue run
   * after that commit. The HTTP layer keeps a create and its idempotency record together.
   */
  atomically<T>(work: () => T): T;
  /** Emits a change on the feed (after the commit of the work under way, if any). */
  emit(type: ChangeType, accountId: string | null, data: unknown): void;
  /**
   * Which start-up fixtures documents this database already holds (by a hash of the document),
   * so a --db file or a restored snapshot is not seeded twice; `add` joins the caller's unit of work.
   */
  appliedFixtures: { has(hash: string): boolean; add(hash: string): void };
  /** A consistent copy of the whole state as an SQLite file's bytes (online backup; requests go on meanwhile). */
  snapshot(): Promise<Buffer>;
  /** Stops timers and in-flight work, closes the database. */
  close(): Promise<void>;
  /**
   * Shutdown: waits up to `graceMs` for the webhook attempts under way, then cuts
   * the rest, unrecorded; their deliveries stay pending for the next start on the same file.
   */
  drainWebhooks(graceMs: number): Promise<void>;
}
