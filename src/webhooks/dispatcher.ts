/**
 * Drains the webhook outbox: signs each body, POSTs it to the merchant, records every
 * attempt, and retries with exponential back-off on the sandbox clock until the merchant
 * answers 2xx with `{"code":"200","message":"SUCCESS"}`. Deliveries to one URL go one at a
 * time, in order; different URLs never wait for each other.
 */
import { isoTimestamp, type Clock } from '../domain/clock.js';
import type { Delivery } from '../domain/entities.js';
import type { ChangeFeed, DeliveriesRepo } from '../domain/ports.js';
import type { TimedWork } from '../domain/scheduler.js';
import { webhookHeaders, type WebhookSigner } from './signing.js';

export interface DispatcherDeps {
  clock: Clock;
  deliveries: DeliveriesRepo;
  feed: ChangeFeed;
  sign: WebhookSigner;
  /** `--webhook-timezone` of the timestamp header. */
  timeZone: string;
  /** `--delivery-timeout` in milliseconds. */
  timeoutMs: number;
  /** Hears of an attempt that failed in the sandbox itself (not at the merchant). */
  onError: (err: unknown) => void;
}

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

/** True when a merchant's answer acknowledges the webhook (contract: Webhooks). */
export function isAcknowledgement(status: number, body: string): boolean {
  if (status < 200 || status > 299) return false;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed === null || typeof parsed !== 'object') return false;
    const { code, message } = parsed as { code?: unknown; message?: unknown };
    return code === '200' && message === 'SUCCESS';
  } catch {
    return false;
  }
}

interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
}

export class Dispatcher implements TimedWork {
  readonly name = 'webhook deliveries';
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly deps: DispatcherDeps) {}

  nextDueMs(): number | null {
    return this.deps.deliveries.nextDue();
  }

  /** Starts the deliveries that are due now, without waiting for them. */
  nudge(): void {
    void this.runDue(this.deps.clock.nowMs(), false);
  }

  async runDue(nowMs: number, wait: boolean): Promise<void> {
    const started: Promise<void>[] = [];
    for (const row of this.deps.deliveries.due(nowMs)) {
      if (this.inFlight.has(row.id)) continue;
      started.push(this.start(row));
    }
    if (wait) await Promise.all([...started, ...this.inFlight.values()]);
  }

  /** Waits for every attempt under way (before the clock moves, and on shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
  }

  /** Queues a delivery again now, whatever its status: same body, fresh timestamp and signature. */
  resend(id: string): Delivery | undefined {
    const { deliveries, clock } = this.deps;
    if (!deliveries.byId(id)) return undefined;
    deliveries.requeue(id, clock.nowMs());
    this.nudge();
    return deliveries.byId(id);
  }

  private start(row: Delivery): Promise<void> {
    const key = row.url ?? '';
    const run = (this.chains.get(key) ?? Promise.resolve())
      .then(() => this.attempt(row.id))
      .catch((err: unknown) => this.deps.onError(err))
      .finally(() => {
        this.inFlight.delete(row.id);
        if (this.chains.get(key) === run) this.chains.delete(key);
      });
    this.chains.set(key, run);
    this.inFlight.set(row.id, run);
    return run;
  }

  private async attempt(id: string): Promise<void> {
    const { deliveries, clock, timeZone } = this.deps;
    const row = deliveries.byId(id);
    if (!row || row.status !== 'pending' || row.next_attempt_at === null || row.next_attempt_at > clock.nowMs()) return;
    const at = clock.nowMs();
    const number = row.attempts + 1;
    // RSASSA-PKCS1-v1_5 is deterministic and signs the body alone, so one signature serves
    // every attempt and resend of this delivery (node-forge takes ~30 ms to make one).
    let signature = row.signature;
    if (signature === null) {
      signature = this.deps.sign(row.body);
      deliveries.setSignature(id, signature);
    }
    const signed = signature;
    const headers = webhookHeaders(row.body, new Date(at), timeZone, () => signed);
    const started = performance.now();
    const outcome = await this.send(row, number, headers);
    const duration = performance.now() - started;
    const now = clock.nowMs();
    const giveUp = !outcome.ok && number >= MAX_ATTEMPTS;
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

  private async send(row: Delivery, number: number, headers: Record<string, string>): Promise<AttemptOutcome> {
    if (number <= row.simulated_failures) {
      return { ok: false, status: row.simulated_failure_status, body: null, error: `simulated failure ${number} of ${row.simulated_failures} (scenario webhook_failures); the merchant was not contacted` };
    }
    if (!row.url) {
      return { ok: false, status: null, body: null, error: 'no notification URL: set notification_url on the transaction or start the sandbox with --notification-url' };
    }
    try {
      const res = await fetch(row.url, {
        method: 'POST',
        headers,
        body: row.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
      const text = (await res.text()).slice(0, MAX_STORED_RESPONSE);
      const ok = isAcknowledgement(res.status, text);
      return {
        ok,
        status: res.status,
        body: text,
        error: ok ? null : res.status >= 200 && res.status < 300 ? 'answer was not {"code":"200","message":"SUCCESS"}' : `merchant answered HTTP ${res.status}`,
      };
    } catch (err) {
      return { ok: false, status: null, body: null, error: describeFetchError(err, this.deps.timeoutMs) };
    }
  }
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
    const cause = (err as Error & { cause?: { code?: string; message?: string; errors?: { code?: string; message?: string }[] } }).cause;
    const root = cause?.code ? cause : cause?.errors?.find((e) => e.code);
    if (root?.code) return `${root.code}: ${root.message ?? err.message}`;
    return cause?.message ? `${err.message}: ${cause.message}` : err.message;
  }
  return String(err);
}
