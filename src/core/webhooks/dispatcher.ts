/**
 * Drains the webhook outbox: signs each body, POSTs it to the merchant, records every
 * attempt, and retries with exponential back-off on the sandbox clock until the merchant
 * answers 2xx with `{"code":"200","message":"SUCCESS"}`. It composes the parts, each in its
 * own file: the passes over due deliveries (`passes.ts`), one transaction's (or one
 * subscription's) webhooks in order (`ordering.ts`), the per-URL lanes (`lanes.ts`), signing ahead (`signing-ahead.ts`), the
 * clock offsets attempts are stamped from (`clock-offsets.ts`), one attempt and its record
 * (`attempt.ts`, worded by `outcomes.ts`, scripted faults in `faults.ts`), the back-off after
 * failures of the sandbox itself (`crash-backoff.ts`) and the retry policy (`retries.ts`).
 */
import type { Clock } from '../clock/clock.js';
import type { Delivery as DeliveryRow } from '../domain/entities.js';
import type { ChangeFeed, DeliveriesRepo, DueDelivery } from '../domain/ports.js';
import type { TimedWork } from '../clock/timed-work.js';
import { attempt, type AttemptDeps, type AttemptReport } from './attempt.js';
import { ClockOffsets } from './clock-offsets.js';
import { CrashBackoff, realTime, type RealTime } from './crash-backoff.js';
import { releasesParked } from './faults.js';
import { Lanes, MAX_IN_FLIGHT_PER_URL } from './lanes.js';
import { WebhookOrder, type DeliveryResources } from './ordering.js';
import { Passes } from './passes.js';
import type { WebhookForwarding } from './forwarding.js';
import { createPoster, type WebhookPoster } from './post.js';
import { attemptsDue } from './retries.js';
import type { AsyncWebhookSigner, WebhookSigner } from './signing.js';
import { Signatures } from './signing-ahead.js';
import type { ConnectGuard } from './targets.js';

export interface DispatcherDeps {
  clock: Clock;
  deliveries: DeliveriesRepo;
  /** For the transaction a refund's webhook belongs to (its order follows the payment's). */
  resources: DeliveryResources;
  feed: ChangeFeed;
  sign: WebhookSigner;
  /** Signs off the main thread (node:crypto's thread pool); without it `sign` is used. */
  signAsync?: AsyncWebhookSigner;
  /** `--webhook-timezone` of the timestamp header. */
  timeZone: string;
  /** `--delivery-timeout` in milliseconds. */
  timeoutMs: number;
  /** Hears of an attempt that failed in the sandbox itself (not at the merchant). */
  onError: (err: unknown) => void;
  /** Hears that attempts are recorded again after such failures (the back-off ended). */
  onRecovered?: () => void;
  /** Why a URL may not receive webhooks now (targets.ts), or null; checked before each attempt. */
  refuseTarget?: (url: string) => Promise<string | null>;
  /** The HTTP client (a fake in unit tests); default: node:http(s) with kept-alive connections per origin. */
  poster?: WebhookPoster;
  /** Hears of each attempt once it is recorded (the go-live report). */
  onAttempt?: (attempt: AttemptReport) => void;
  /** Checked against the address each connection is made to (targets.ts `connectGuard`). */
  connectGuard?: ConnectGuard;
  /** Real time for the back-off and the full passes (a fake in unit tests); default: performance.now and timers. */
  time?: RealTime;
}

export class Dispatcher implements TimedWork {
  readonly name = 'webhook deliveries';
  /** Deliveries admitted (waiting for a slot on their URL, or being attempted), by id. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly passes: Passes;
  private readonly order: WebhookOrder;
  private readonly lanes = new Lanes();
  private readonly offsets: ClockOffsets;
  /**
   * Each account's own passes, on its own clock (an advance of that account runs them): they
   * read only that account's deliveries that fell due since its last pass, as the sandbox
   * clock's passes read every account's, so neither reads again what the other has seen.
   */
  private readonly accountPasses = new Map<string, Passes>();
  private readonly backoff: CrashBackoff;
  private readonly attemptDeps: AttemptDeps;
  /** The HTTP client: kept-alive connections per origin. */
  private readonly poster: WebhookPoster;
  /** Set by `drain()`: no attempt starts or is recorded any more. */
  private draining = false;

  constructor(private readonly deps: DispatcherDeps) {
    const time = deps.time ?? realTime;
    this.poster =
      deps.poster ??
      createPoster({
        timeoutMs: deps.timeoutMs,
        maxFreePerOrigin: MAX_IN_FLIGHT_PER_URL,
        ...(deps.connectGuard ? { guard: deps.connectGuard } : {}),
      });
    this.passes = new Passes({ deliveries: deps.deliveries, time });
    this.order = new WebhookOrder(deps);
    this.offsets = new ClockOffsets(deps.clock);
    this.backoff = new CrashBackoff({
      onError: deps.onError,
      ...(deps.onRecovered ? { onRecovered: deps.onRecovered } : {}),
      time,
      onResume: () => {
        this.readAll(); // what fell due meanwhile was skipped
        this.nudge();
      },
    });
    this.attemptDeps = {
      clock: deps.clock,
      deliveries: deps.deliveries,
      feed: deps.feed,
      timeZone: deps.timeZone,
      send: { poster: this.poster, timeoutMs: deps.timeoutMs, ...(deps.refuseTarget ? { refuseTarget: deps.refuseTarget } : {}) },
      signatures: new Signatures(deps),
      offsets: this.offsets,
      realNow: () => time.now(),
      draining: () => this.draining,
      recorded: (row) => {
        this.backoff.recorded();
        if (releasesParked(row)) this.order.releaseParked(row, deps.clock.nowMs(), () => this.readAll());
      },
      ...(deps.onAttempt ? { onAttempt: deps.onAttempt } : {}),
    };
  }

  /**
   * Hands attempts to `forwarding` before they are POSTed: each attempt it takes (a listener of
   * its account is connected) is sent there, and its report judged and recorded as a POST's.
   */
  useForwarding(forwarding: WebhookForwarding): void {
    this.attemptDeps.send.forwarding = forwarding;
  }

  /** Closes the idle kept-alive connections to merchants (after `idle()`, on shutdown). */
  close(): void {
    this.backoff.close();
    this.poster.close();
  }

  /**
   * Shutdown: waits up to `graceMs` for the attempts under way, then cuts the rest and starts
   * no more. A cut attempt is not recorded: the delivery stays pending, as it was, and goes out
   * on the next start on the same `--db` file. (SIGTERM with 40 webhooks to a receiver that
   * never answers took 49.5 s, each waiting out its time limit; `docker stop` kills after 10.)
   */
  async drain(graceMs: number): Promise<void> {
    if (this.inFlight.size > 0 && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    this.draining = true;
    this.poster.abort();
    this.attemptDeps.send.forwarding?.abort();
    await this.idle();
  }

  /**
   * The next instant a delivery falls due that no pass has seen: deliveries under way are not
   * due, nor those just queued (the nudge after their commit starts them).
   */
  nextDueMs(): number | null {
    const account = this.deps.clock.account();
    return (account === null ? this.passes : this.passesOf(account)).nextDueMs(this.deps.clock.nowMs(), (id) => this.offsets.isQueued(id));
  }

  /** The next pass of every clock reads every due delivery. */
  private readAll(): void {
    this.passes.readAll();
    this.accountPasses.clear();
  }

  /** The passes on `accountId`'s own clock. */
  private passesOf(accountId: string): Passes {
    let passes = this.accountPasses.get(accountId);
    if (!passes) {
      passes = new Passes({ deliveries: this.deps.deliveries });
      this.accountPasses.set(accountId, passes);
    }
    return passes;
  }

  /** Attempts due up to `untilMs`: each pending delivery's retries that fall in the window. */
  countDue(untilMs: number): number {
    return attemptsDue(this.deps.deliveries.due(untilMs), untilMs);
  }

  /**
   * Hears of a delivery queued (inside its unit of work) with its first attempt at
   * `nextAttemptAt`: one due at once is stamped from the clock now, and left to the nudge.
   */
  queued(id: string, nextAttemptAt: number | null): void {
    this.offsets.queued(id, nextAttemptAt);
  }

  /** Starts the deliveries that are due now, without waiting for them. A pass that fails backs off (then reads everything). */
  nudge(): void {
    // Nudged on an account's clock (an advance of that account, or its request): that account's
    // own pass first (what it queued while its clock moved on is behind the sandbox clock's
    // last pass), then the sandbox clock's pass over every account's deliveries.
    const { clock } = this.deps;
    const crashed = (err: unknown): void => this.backoff.crashed(err);
    if (clock.account() !== null) this.runDue(clock.nowMs(), false).catch(crashed);
    clock.onSandboxClock(() => this.runDue(clock.nowMs(), false)).catch(crashed);
  }

  async runDue(nowMs: number, wait: boolean): Promise<void> {
    if (this.draining) return;
    const { clock } = this.deps;
    // On one account's clock (its own advance), that account's own passes read its deliveries.
    const account = clock.account();
    const passes = account === null ? this.passes : this.passesOf(account);
    if (this.backoff.paused) {
      passes.skip(nowMs);
      return;
    }
    const outer = clock.nowMs();
    passes.run(
      nowMs,
      (row) =>
        // Each delivery is started, stamped and retried on its account's clock.
        clock.inAccount(row.account_id, () => {
          const key = this.order.keyOf(row);
          if (this.order.mayStart(row, key, nowMs + (clock.nowMs() - outer))) this.admit(row, key);
          else this.offsets.waiting(row.id);
        }),
      (id) => this.inFlight.has(id),
    );
    // Every delivery queued before this pass was admitted, or waits behind its queue (its offset kept).
    this.offsets.passed();
    if (wait) await this.idle();
  }

  /** Waits for every attempt under way (before the clock moves, and on shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
  }

  /** Queues a delivery again now, whatever its status: same body, fresh timestamp and signature. */
  resend(id: string): DeliveryRow | undefined {
    const { deliveries, clock } = this.deps;
    if (!deliveries.byId(id)) return undefined;
    deliveries.requeue(id, clock.nowMs());
    this.nudge();
    return deliveries.byId(id);
  }

  /**
   * A listener of `accountId`'s deliveries (null: every account's) connected. A pending delivery
   * of those without a URL, which only a listener can carry, is due now rather than at its next
   * retry; one with a URL keeps its retry's time, as it would without a listener.
   */
  carryWaiting(accountId: string | null): void {
    const { deliveries, clock } = this.deps;
    const waiting = deliveries.waitingWithoutUrl(accountId).filter((row) => !this.inFlight.has(row.id));
    if (waiting.length === 0) return;
    for (const row of waiting) clock.inAccount(row.account_id, () => deliveries.postpone(row.id, clock.nowMs()));
    this.readAll();
    this.nudge();
  }

  /** Starts a delivery once its URL has a free slot; when it ends, the next one of its queue may start. */
  private admit(row: DueDelivery, key: string): void {
    // Only the id and URL are kept while it waits for a slot: a backlog holds no bodies.
    const { id } = row;
    const url = row.url ?? '';
    this.order.started(id, key);
    const admittedOffset = this.offsets.admit(id);
    // Signed before it takes a slot: a slot is held for the round trip alone.
    const run = this.attemptDeps.signatures
      .ahead(id)
      .then(() => this.lanes.acquire(url))
      .then(() => attempt(this.attemptDeps, id, admittedOffset).finally(() => this.lanes.release(url)))
      .catch((err: unknown) => this.backoff.crashed(err))
      .finally(() => {
        this.inFlight.delete(id);
        this.order.ended(key);
        this.startNextOf(key);
      });
    this.inFlight.set(id, run);
  }

  /**
   * After a delivery ended: starts the next one of its queue, or holds the rest behind a
   * retry. If that fails (a postpone on a full disk), the next one, which passes skipped while
   * its queue was busy, would wait for nothing: it backs off, and the resume reads everything.
   */
  private startNextOf(key: string): void {
    try {
      if (this.backoff.paused || this.draining) return;
      const next = this.order.nextAfter(key, this.deps.clock.nowMs(), (id) => this.inFlight.has(id));
      if (next) this.admit(next, key);
    } catch (err) {
      this.backoff.crashed(err);
    }
  }
}
