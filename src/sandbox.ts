/**
 * The sandbox as the outer layers see it (HTTP routes, the server, the CLI): its options,
 * clock, change feed, domain services and the repositories they read, all as interfaces.
 * `compose.ts` builds one; nothing here knows how.
 */
import type { SandboxOptions } from './config.js';
import type { Clock } from './domain/clock.js';
import type { Delivery } from './domain/entities.js';
import type { SandboxEvents } from './domain/events.js';
import type { MerchantAccounts } from './domain/merchant-accounts.js';
import type { Repositories } from './domain/ports.js';
import type { SubscriptionService } from './domain/subscriptions.js';
import type { TransactionService } from './domain/transactions.js';
import type { LoadedScenarioPolicy } from './scenarios/policy.js';

export interface Sandbox {
  options: SandboxOptions;
  clock: Clock;
  /** Read access for the routes, and the HTTP layer's own records (idempotency, request log). */
  stores: Repositories;
  events: SandboxEvents;
  transactions: TransactionService;
  subscriptions: SubscriptionService;
  accounts: MerchantAccounts;
  /** The loaded scenario rules. */
  scenarios: LoadedScenarioPolicy;
  /** The webhook outbox's delivery side. */
  dispatcher: {
    /** Queues a delivery again now, whatever its status: same body, fresh timestamp and signature. */
    resend(id: string): Delivery | undefined;
  };
  webhookPublicKeyPem: string;
  /** Why `url` may not receive webhooks (a non-http(s), link-local, metadata or own address, or a host off --webhook-allow-hosts), or null. */
  webhookTargetRefused(url: string): string | null;
  /** Base URL the sandbox is reached at (for payment_url); set by the server once it listens. */
  baseUrl: string;
  /** Emits a change on the feed (after the commit of the work under way, if any). */
  emit(type: string, accountId: string | null, data: unknown): void;
  /** Moves the sandbox clock forward, running all that falls due; persists the offset. */
  advanceClock(seconds: number): Promise<number>;
  /** Empties all data but the accounts, and seeds the buyers again. */
  reset(): void;
  /** Stops timers and in-flight work, closes the database. */
  close(): Promise<void>;
}
