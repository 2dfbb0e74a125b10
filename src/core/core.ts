/**
 * The core as the features see it: what the core owns and a feature may use. `Core` is what a
 * feature's routes read (handed to `register(ctx)` as `ctx.core`); `CoreParts` adds the storage,
 * the webhook dispatcher and the scheduler a feature builds its own services from. No feature's
 * service is here: each feature builds its own, from these and the public services of the
 * features it depends on.
 */
import type { ApiKeyService } from './auth/api-keys.js';
import type { AccountClocks } from './clock/account-clocks.js';
import type { RewindableClock } from './clock/clock.js';
import type { Scheduler } from './clock/scheduler.js';
import type { SandboxOptions } from './config.js';
import type { Db } from './db/database.js';
import type { Delivery } from './domain/entities.js';
import type { ChangeType, SandboxEvents } from './domain/events.js';
import type { ChangeFeed, DeliveriesRepo, RecordedAttempt, UnitOfWork } from './domain/ports.js';
import type { Queries } from './domain/queries.js';
import type { Logger } from './log.js';
import type { Dispatcher } from './webhooks/dispatcher.js';
import type { WebhookSigning } from './webhooks/signing.js';
import type { TargetPolicy } from './webhooks/targets.js';

export interface Core {
  readonly options: SandboxOptions;
  readonly clock: RewindableClock;
  /** The read-only query ports (no write method). */
  readonly queries: Queries;
  /** The change feed's listeners (`GET /_sandbox/events`, the terminal). */
  readonly events: SandboxEvents;
  /** Emits a change on the feed (after the commit of the work under way, if any). */
  emit(type: ChangeType, accountId: string | null, data: unknown): void;
  /**
   * Runs `work` in one unit of work: everything it stores commits together or not at all (the
   * domain's own units of work inside become part of it), and the effects they queue run
   * after that commit. The HTTP layer keeps a create and its idempotency record together.
   */
  atomically<T>(work: () => T): T;
  /** Base URL the sandbox is reached at (for payment_url); set by the server once it listens. */
  baseUrl: string;
  /** Why `url` may not receive webhooks (a non-http(s), link-local, metadata or own address, or a host off --webhook-allow-hosts), or null. */
  webhookTargetRefused(url: string): string | null;
  /** Why the sandbox may not connect to `address`:`port` for a webhook (checked at connect time, also by check-webhooks), or null. */
  webhookConnectRefused(address: string, port: number): string | null;
  readonly webhookPublicKeyPem: string;
  /** Restricted API keys of the accounts (mint, list, revoke; auth looks secrets up here). */
  readonly apiKeys: ApiKeyService;
  /** The webhook outbox's delivery side. */
  readonly dispatcher: {
    /** Queues a delivery again now, whatever its status: same body, fresh timestamp and signature. */
    resend(id: string): Delivery | undefined;
  };
  /** Adds a listener of each webhook attempt once recorded (the dispatcher calls each in turn). */
  observeAttempts(observer: (attempt: RecordedAttempt) => void): void;
  /** A consistent copy of the whole state as an SQLite file's bytes (online backup; requests go on meanwhile). */
  snapshot(): Promise<Buffer>;
}

/** The core with what a feature's factory builds its services from. */
export interface CoreParts extends Core {
  readonly uow: UnitOfWork;
  readonly feed: ChangeFeed;
  /** The webhook dispatcher's deliveries (write side): the outbox queues them, the report reads them. */
  readonly deliveries: DeliveriesRepo;
  readonly db: Db;
  /** Each account's own clock: a store that times rows by their account's clock is opened over it. */
  readonly accountClocks: AccountClocks;
  readonly dispatcher: Dispatcher;
  readonly scheduler: Scheduler;
  readonly signing: WebhookSigning;
  /** Where webhooks (and reads of a merchant's state URL) may go. */
  readonly targets: TargetPolicy;
  readonly logger: Logger;
  /** The stored state a reset empties (accounts kept), and the sandbox clock's persisted offset (the accounts' own with it). */
  readonly state: { wipe(): void; saveClockOffset(ms: number): void };
}
