/**
 * Drains the webhook outbox: signs each body, POSTs it to the merchant, records every
 * attempt, and retries with exponential back-off on the sandbox clock until the merchant
 * answers 2xx with `{"code":"200","message":"SUCCESS"}`. Up to `MAX_IN_FLIGHT_PER_URL`
 * deliveries to one URL are under way at once (different URLs never wait for each other),
 * so a slow or hanging receiver holds up only its own in-flight deliveries. The webhooks of
 * one transaction (its payment, then each refund) go one at a time, in the order they were
 * queued: a later one waits while an earlier one is under way or waiting for a retry.
 * Scripted faults (`Delivery.fault`) are the only exceptions: a `bad_signature` copy is
 * signed over another body, attempted once and kept out of that order, and a parked
 * `out_of_order` payment webhook waits until a refund webhook of its transaction has been
 * attempted.
 */
import { isoTimestamp, type Clock } from '../domain/clock.js';
import type { Delivery as DeliveryRow } from '../domain/entities.js';
import type { ChangeFeed, DeliveriesRepo, TransactionsRepo } from '../domain/ports.js';
import type { TimedWork } from '../domain/scheduler.js';
import { isAcknowledgement } from './acknowledgement.js';
import { MAX_READ_RESPONSE, PostAbortedError, createPoster, type WebhookPoster } from './post.js';
import type { ConnectGuard } from './targets.js';
import { webhookHeaders, type AsyncWebhookSigner, type WebhookSigner } from './signing.js';
import { Slots } from './slots.js';

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** First retry delay; each further retry doubles it, up to `MAX_RETRY_DELAY_S`. */
export const FIRST_RETRY_DELAY_S = 10;
export const MAX_RETRY_DELAY_S = 6 * 60 * 60;
/** After this many failed attempts a delivery is marked `failed` (it can still be resent). */
export const MAX_ATTEMPTS = 16;

/** Delay before attempt `n + 1` after `n` failed attempts: 10 s, 20 s, 40 s, ... capped at 6 h. */
export function retryDelaySeconds(failedAttempts: number): number {
  return Math.min(FIRST_RETRY_DELAY_S * 2 ** (failedAttempts - 1), MAX_RETRY_DELAY_S);
}

const MAX_STORED_RESPONSE = 64 * 1024;
export { MAX_READ_RESPONSE };

interface AttemptOutcome {
  /** Cut by `drain()` (the sandbox is stopping): not recorded, the delivery stays pending. */
  aborted?: boolean;
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  /** The merchant was called (not a simulated failure, a missing or a refused URL). */
  contacted?: boolean;
  /** The merchant did not answer within the timeout. */
  timedOut?: boolean;
}

/** An attempt as `DispatcherDeps.onAttempt` hears of it, once recorded. */
export interface AttemptReport {
  delivery: DeliveryRow;
  number: number;
  ok: boolean;
  status: number | null;
  contacted: boolean;
  timedOut: boolean;
  durationMs: number;
}

/** The longest time between two full passes over the due deliveries (see `passedAt`). */
const FULL_PASS_EVERY_MS = 5000;

/** How many deliveries to one URL may be under way at once. */
export const MAX_IN_FLIGHT_PER_URL = 8;

/**
 * At most this many admitted deliveries are signed ahead at once (their bodies read and handed
 * to the signer); the rest wait for a place holding only their id, as in a lane.
 */
const MAX_SIGNING_AHEAD = 2 * MAX_IN_FLIGHT_PER_URL;

/**
 * After an attempt fails in the sandbox itself (its record cannot be written: a full disk),
 * no attempt starts for this long, doubled at each further failure up to the maximum (real
 * time). It retried at once, in a tight loop: 78% CPU and 431,000 log lines in 5 minutes.
 */
export const CRASH_BACKOFF_FIRST_MS = 250;
export const CRASH_BACKOFF_MAX_MS = 30_000;

/** At most this many queued deliveries' clock offsets are kept until admitted (`Dispatcher.queued`). */
const MAX_NOTED_QUEUED = 100_000;

export interface DispatcherDeps {
  clock: Clock;
  deliveries: DeliveriesRepo;
  /** For the transaction a refund's webhook belongs to (its order follows the payment's). */
  transactions: Pick<TransactionsRepo, 'refundById' | 'refundsOf'>;
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
}

export class Dispatcher implements TimedWork {
  readonly name = 'webhook deliveries';
  /** Deliveries admitted (waiting for a slot on their URL, or being attempted), by id. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Transactions with a delivery admitted: their later deliveries wait for it. */
  private readonly busyTransactions = new Set<string>();
  /** The deliveries under way (or waiting for a slot) to each URL. */
  private readonly lanes = new Map<string, Slots>();
  /** Deliveries being signed ahead of their slot, and those waiting for a place to be. */
  private readonly signing = new Slots(MAX_SIGNING_AHEAD);
  /** Deliveries postponed behind an earlier one of their transaction that awaits a retry. */
  private readonly held = new Set<string>();
  /**
   * The sandbox instant of the last pass over due deliveries (`runDue`), or -Infinity when a
   * full pass is needed (at start, after parked deliveries were released, after the clock went
   * back). Every pending delivery due before it was started then, waits behind an earlier one
   * of its transaction (started when that one ends), or was held to a later instant; one queued
   * since is nudged after its commit. So a pass reads only what fell due since, not the backlog
   * under way, and the scheduler is not told a delivery under way is due.
   */
  private lastPass = -Infinity;
  /** When (performance.now) the last full pass ran. */
  private fullPassAt = 0;
  /**
   * The clock offset each delivery due at once was queued at, until the next pass admits it
   * (the nudge after its commit): a step of an advance queues webhooks that go out after its
   * slice commits, by when the clock has moved on. Until then the scheduler is not told they
   * are due (the nudge starts them; a step would wait for them).
   */
  private readonly queuedOffsets = new Map<string, number>();
  /**
   * The clock offset of the attempt before a retry that fell due before the clock's now (the
   * advance moved past it while the attempt was under way): the retry goes at once, stamped on
   * that attempt's timeline, so retries inside an advance's window all run in it.
   */
  private readonly overdueOffsets = new Map<string, number>();

  /** The HTTP client: kept-alive connections per origin. */
  private readonly poster: WebhookPoster;

  constructor(private readonly deps: DispatcherDeps) {
    this.poster = deps.poster ?? createPoster({ timeoutMs: deps.timeoutMs, maxFreePerOrigin: MAX_IN_FLIGHT_PER_URL, ...(deps.connectGuard ? { guard: deps.connectGuard } : {}) });
  }

  /** Closes the idle kept-alive connections to merchants (after `idle()`, on shutdown). */
  close(): void {
    clearTimeout(this.resumeTimer);
    this.poster.close();
  }

  /** Set by `drain()`: no attempt starts or is recorded any more. */
  private draining = false;
  /** Attempts that failed in the sandbox itself in a row, and until when (performance.now) none starts. */
  private crashes = 0;
  private pausedUntil = 0;
  private resumeTimer: NodeJS.Timeout | undefined;

  /** Backing off after failures of the sandbox itself: nothing is admitted. */
  private get paused(): boolean {
    return this.crashes > 0 && performance.now() < this.pausedUntil;
  }

  /** An attempt failed in the sandbox itself: reported, and no attempt starts for a while (exponential, capped). */
  private crashed(err: unknown): void {
    this.crashes += 1;
    this.deps.onError(err);
    const delay = Math.min(CRASH_BACKOFF_MAX_MS, CRASH_BACKOFF_FIRST_MS * 2 ** Math.min(this.crashes - 1, 20));
    this.pausedUntil = performance.now() + delay;
    clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = undefined;
      this.lastPass = -Infinity; // what fell due meanwhile was skipped: read everything
      this.nudge();
    }, delay);
    this.resumeTimer.unref();
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
    await this.idle();
  }

  /** The last pass's instant, forgotten when the clock has gone back before it (reset, a failed step). */
  private passedAt(nowMs: number): number {
    if (this.lastPass > nowMs) this.lastPass = -Infinity;
    // A full pass at least every FULL_PASS_EVERY_MS: a delivery that a pass skipped and that
    // nothing nudges again (an attempt that failed in the sandbox itself, during a full disk)
    // is never left behind for good.
    if (performance.now() - this.fullPassAt > FULL_PASS_EVERY_MS) this.lastPass = -Infinity;
    return this.lastPass;
  }

  /**
   * The next instant a delivery falls due that no pass has seen: deliveries under way are not
   * due, nor those just queued (the nudge after their commit starts them).
   */
  nextDueMs(): number | null {
    const passed = this.passedAt(this.deps.clock.nowMs());
    if (passed === -Infinity) return this.deps.deliveries.nextDue();
    for (const row of this.deps.deliveries.pendingAfter(passed)) {
      if (!this.queuedOffsets.has(row.id)) return row.next_attempt_at;
    }
    return null;
  }

  /** Attempts due up to `untilMs`: each pending delivery's retries that fall in the window. */
  countDue(untilMs: number): number {
    let count = 0;
    for (const row of this.deps.deliveries.due(untilMs)) {
      let at = row.next_attempt_at ?? untilMs;
      for (let n = row.attempts; at <= untilMs && n < MAX_ATTEMPTS; n += 1) {
        count += 1;
        at += retryDelaySeconds(n + 1) * 1000;
      }
    }
    return count;
  }

  /**
   * Hears of a delivery queued (inside its unit of work) with its first attempt at
   * `nextAttemptAt`: one due at once is stamped from the clock now, and left to the nudge.
   */
  queued(id: string, nextAttemptAt: number | null): void {
    if (nextAttemptAt === null || nextAttemptAt > this.deps.clock.nowMs()) return;
    // Entries of work rolled back are dropped by the next pass; the map stays bounded all the same.
    if (this.queuedOffsets.size >= MAX_NOTED_QUEUED) this.queuedOffsets.clear();
    this.queuedOffsets.set(id, this.deps.clock.offsetMs());
  }

  /** Starts the deliveries that are due now, without waiting for them. */
  nudge(): void {
    void this.runDue(this.deps.clock.nowMs(), false);
  }

  async runDue(nowMs: number, wait: boolean): Promise<void> {
    if (this.draining) return;
    if (this.paused) {
      // Backing off: what is due now waits for the resume (which reads everything again); the
      // scheduler is not told it is still due, so an advance moves on.
      if (nowMs > this.lastPass) this.lastPass = nowMs;
      return;
    }
    const passed = this.passedAt(nowMs);
    if (passed === -Infinity) this.fullPassAt = performance.now();
    const rows = passed === -Infinity ? this.deps.deliveries.due(nowMs) : this.deps.deliveries.dueBetween(passed, nowMs);
    this.lastPass = nowMs;
    for (const row of rows) {
      if (this.inFlight.has(row.id)) continue;
      if (row.fault === 'bad_signature') {
        this.admit(row, `bad_signature:${row.id}`); // outside its transaction's order
        continue;
      }
      const transactionId = this.transactionOf(row);
      // A delivery of the same transaction is under way: this one starts when it ends.
      if (this.busyTransactions.has(transactionId)) continue;
      const head = this.nextOfTransaction(transactionId);
      if (head && head.id !== row.id) {
        // An earlier delivery of this transaction waits for its retry: this one waits with it.
        if (head.next_attempt_at !== null && head.next_attempt_at > nowMs) this.holdBehind(row, head.next_attempt_at);
        continue;
      }
      this.admit(row, transactionId);
    }
    // Every delivery queued before this pass was admitted, or waits behind its transaction.
    this.queuedOffsets.clear();
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

  /** The transaction a delivery is about: the payment's own id, or the refunded transaction's. */
  private transactionOf(row: DeliveryRow): string {
    if (row.kind === 'payment') return row.resource_id;
    return this.deps.transactions.refundById(row.resource_id)?.transaction_id ?? row.resource_id;
  }

  /** The pending deliveries of a transaction (its payment's and its refunds'), earliest queued first. */
  private pendingOfTransaction(transactionId: string): DeliveryRow[] {
    const { deliveries, transactions } = this.deps;
    const rows = deliveries.forResource(transactionId);
    for (const refund of transactions.refundsOf(transactionId)) rows.push(...deliveries.forResource(refund.id));
    // Bad-signature copies go on their own; parked deliveries wait for a refund's attempt.
    return rows.filter((d) => d.status === 'pending' && d.fault !== 'bad_signature' && d.next_attempt_at !== null).sort((a, b) => a.seq - b.seq);
  }

  /** The earliest-queued delivery of a transaction that is still pending, if any. */
  private nextOfTransaction(transactionId: string): DeliveryRow | undefined {
    return this.pendingOfTransaction(transactionId)[0];
  }

  /** Starts a delivery once its URL has a free slot; when it ends, the transaction's next one may start. */
  private admit(row: DeliveryRow, transactionId: string): void {
    // Only the id and URL are kept while it waits for a slot: a backlog holds no bodies.
    const { id } = row;
    const url = row.url ?? '';
    this.busyTransactions.add(transactionId);
    this.held.delete(id);
    const admittedOffset = this.queuedOffsets.get(id) ?? this.overdueOffsets.get(id) ?? this.deps.clock.offsetMs();
    this.queuedOffsets.delete(id);
    this.overdueOffsets.delete(id);
    // Signed before it takes a slot: a slot is held for the round trip alone.
    const run = this.signAhead(id)
      .then(() => this.acquire(url))
      .then(() => this.attempt(id, admittedOffset).finally(() => this.release(url)))
      .catch((err: unknown) => this.crashed(err))
      .finally(() => {
        this.inFlight.delete(id);
        this.busyTransactions.delete(transactionId);
        this.startNextOf(transactionId);
      });
    this.inFlight.set(id, run);
  }

  /** After a delivery of a transaction ends: starts its next one, or holds the rest behind a retry. */
  private startNextOf(transactionId: string): void {
    try {
      if (this.busyTransactions.has(transactionId) || this.paused || this.draining) return;
      const next = this.nextOfTransaction(transactionId);
      if (!next || this.inFlight.has(next.id) || next.next_attempt_at === null) return;
      const now = this.deps.clock.nowMs();
      // A follower held behind the one that just ended starts now, whatever time it was held to.
      if (next.next_attempt_at <= now || this.held.delete(next.id)) {
        if (next.next_attempt_at > now) this.deps.deliveries.postpone(next.id, now);
        this.admit(next, transactionId);
        return;
      }
      const retryAt = next.next_attempt_at;
      for (const later of this.pendingOfTransaction(transactionId)) {
        if (later.id !== next.id && later.next_attempt_at !== null && later.next_attempt_at < retryAt) this.holdBehind(later, retryAt);
      }
    } catch (err) {
      this.deps.onError(err);
    }
  }

  /** Moves a delivery's next attempt to when the earlier one of its transaction is retried. */
  private holdBehind(row: DeliveryRow, atMs: number): void {
    this.deps.deliveries.postpone(row.id, atMs);
    this.held.add(row.id);
  }

  /**
   * Signs a pending delivery that has no signature yet, off the main thread, and stores the
   * signature (`attempt` uses it). A failure is left to `attempt`, which signs again and reports.
   */
  private async signAhead(id: string): Promise<void> {
    const { signAsync, deliveries } = this.deps;
    if (!signAsync) return;
    await this.signing.acquire();
    try {
      const row = deliveries.byId(id);
      if (!row || row.status !== 'pending' || row.signature !== null) return;
      deliveries.setSignature(id, await signAsync(signedBody(row)));
    } catch {
      // attempt() signs again
    } finally {
      this.signing.release();
    }
  }

  private acquire(url: string): Promise<void> {
    let lane = this.lanes.get(url);
    if (!lane) {
      lane = new Slots(MAX_IN_FLIGHT_PER_URL);
      this.lanes.set(url, lane);
    }
    return lane.acquire();
  }

  /** Hands the slot to the next waiting delivery to `url`, or frees it. */
  private release(url: string): void {
    const lane = this.lanes.get(url);
    if (!lane) return;
    lane.release();
    if (lane.idle) this.lanes.delete(url);
  }

  /**
   * The sandbox time of an attempt of a delivery queued (or, for a retry, admitted) when the
   * clock's offset was `admittedOffset`: the clock now, less any advance since. A delivery
   * queued by a step of an advance is stamped (and its retry timed) from the instant it was
   * queued at, however far the advance has moved on while it waited for its commit, its slot
   * or its answer; one queued in real time is stamped now.
   */
  private instant(admittedOffset: number): number {
    const { clock } = this.deps;
    return clock.nowMs() - Math.max(0, clock.offsetMs() - admittedOffset);
  }

  private async attempt(id: string, admittedOffset: number): Promise<void> {
    const { deliveries, clock, timeZone } = this.deps;
    if (this.draining) return;
    const row = deliveries.byId(id);
    if (!row || row.status !== 'pending' || row.next_attempt_at === null || row.next_attempt_at > clock.nowMs()) return;
    const number = row.attempts + 1;
    // RSASSA-PKCS1-v1_5 is deterministic and signs the body alone, so one signature serves
    // every attempt and resend of this delivery.
    let signature = row.signature;
    if (signature === null) {
      signature = this.deps.signAsync ? await this.deps.signAsync(signedBody(row)) : this.deps.sign(signedBody(row));
      deliveries.setSignature(id, signature);
    }
    const signed = signature;
    // Never before it fell due (a retry on the timeline of an advance that moved past it).
    const start = this.instant(admittedOffset);
    const at = Math.max(row.next_attempt_at, start);
    const headers = webhookHeaders(row.body, new Date(at), timeZone, () => signed);
    const started = performance.now();
    const outcome = await this.send(row, number, headers);
    if (outcome.aborted) return; // stopping: left pending for the next start
    const duration = performance.now() - started;
    const now = at + (this.instant(admittedOffset) - start);
    const badSignature = row.fault === 'bad_signature';
    if (badSignature && outcome.status !== null) {
      outcome.error = outcome.ok
        ? 'scripted bad signature: the merchant acknowledged a webhook whose signature does not match its body (it must refuse it)'
        : `scripted bad signature: refused by the merchant (HTTP ${outcome.status}), as it should be; not retried`;
    }
    // A bad-signature copy is attempted once; anything else until MAX_ATTEMPTS.
    const giveUp = !outcome.ok && (number >= MAX_ATTEMPTS || badSignature);
    if (!outcome.ok && !giveUp && now + retryDelaySeconds(number) * 1000 <= clock.nowMs()) {
      if (this.overdueOffsets.size >= MAX_NOTED_QUEUED) this.overdueOffsets.clear();
      this.overdueOffsets.set(id, admittedOffset);
    }
    deliveries.recordAttempt(
      {
        delivery_id: id,
        number,
        at,
        url: row.url,
        request_headers: headers,
        request_body: row.body,
        response_status: outcome.status,
        response_body: outcome.body,
        error: outcome.error,
        duration_ms: Math.round(duration * 100) / 100,
        ok: outcome.ok,
      },
      {
        status: outcome.ok ? 'delivered' : giveUp ? 'failed' : 'pending',
        attempts: number,
        next_attempt_at: outcome.ok || giveUp ? null : now + retryDelaySeconds(number) * 1000,
        delivered_at: outcome.ok ? now : row.delivered_at,
        updated_at: now,
      },
    );
    if (this.crashes > 0) {
      this.crashes = 0;
      this.deps.onRecovered?.();
    }
    if (row.kind === 'refund' && !badSignature) this.releaseParked(row);
    this.deps.onAttempt?.({ delivery: row, number, ok: outcome.ok, status: outcome.status, contacted: outcome.contacted === true, timedOut: outcome.timedOut === true, durationMs: duration });
    this.deps.feed.emit('delivery.attempted', row.account_id, {
      id,
      number,
      ok: outcome.ok,
      status: outcome.status,
      error: outcome.error,
      at: isoTimestamp(at),
      kind: row.kind,
      resource_id: row.resource_id,
      url: row.url,
      next_attempt_at: outcome.ok || giveUp ? null : isoTimestamp(now + retryDelaySeconds(number) * 1000),
    });
  }

  /** After a refund webhook's attempt: its transaction's parked (`out_of_order`) deliveries are due now. */
  private releaseParked(refundRow: DeliveryRow): void {
    const { deliveries, clock } = this.deps;
    const transactionId = this.transactionOf(refundRow);
    const now = clock.nowMs();
    for (const d of deliveries.forResource(transactionId)) {
      if (d.status === 'pending' && d.next_attempt_at === null) {
        deliveries.postpone(d.id, now);
        this.lastPass = -Infinity; // due now, behind the last pass: the next one reads everything
      }
    }
  }

  private async send(row: DeliveryRow, number: number, headers: Record<string, string>): Promise<AttemptOutcome> {
    // An attempt that contacts nobody (simulated, no URL) would end in the same turn of the
    // event loop: a backlog of them ran as one chain of promises that froze the server.
    if (number <= row.simulated_failures || !row.url) await yieldToEventLoop();
    if (number <= row.simulated_failures) {
      return { ok: false, status: row.simulated_failure_status, body: null, error: `simulated failure ${number} of ${row.simulated_failures} (scenario webhook_failures); the merchant was not contacted` };
    }
    if (!row.url) {
      return { ok: false, status: null, body: null, error: 'no notification URL: set notification_url on the transaction or start the sandbox with --notification-url' };
    }
    const refused = this.deps.refuseTarget ? await this.deps.refuseTarget(row.url) : null;
    if (refused !== null) return { ok: false, status: null, body: null, error: `target refused: ${refused}; the merchant was not contacted` };
    try {
      // Redirects are not followed; judged on the whole answer (up to 1 MiB); only the first 64 KiB is stored.
      const { status, text, whole } = await this.poster.post(row.url, headers, row.body);
      const ok = whole && isAcknowledgement(status, text);
      const tooLong = !whole && status >= 200 && status < 300;
      return {
        ok,
        status,
        contacted: true,
        body: text.slice(0, MAX_STORED_RESPONSE),
        error: ok
          ? null
          : tooLong
            ? `answer larger than ${MAX_READ_RESPONSE} bytes`
            : status >= 300 && status < 400
              ? `merchant answered HTTP ${status} (redirects are not followed)`
              : status >= 200 && status < 300
                ? 'answer was not {"code":"200","message":"SUCCESS"}'
                : `merchant answered HTTP ${status}`,
      };
    } catch (err) {
      if (err instanceof PostAbortedError) return { aborted: true, ok: false, status: null, body: null, error: err.message, contacted: true, timedOut: false };
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      return { ok: false, status: null, body: null, error: describePostError(err, this.deps.timeoutMs), contacted: true, timedOut };
    }
  }
}

/** What a delivery's signature covers: its body; a scripted bad signature is a real signature of another body, so it never verifies. */
function signedBody(row: DeliveryRow): string {
  return row.fault === 'bad_signature' ? `${row.body}\n` : row.body;
}

function describePostError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
    const { code } = err as Error & { code?: unknown };
    if (typeof code === 'string') return `${code}: ${err.message}`;
    return err.message;
  }
  return String(err);
}
