/**
 * One attempt of a delivery: signed (or its stored signature), stamped on the sandbox clock,
 * POSTed, and recorded with its outcome and the next retry, or the delivery's end (`delivered`,
 * `failed`). The change feed and `onAttempt` hear of it once recorded.
 */
import { isoTimestamp, type Clock } from '../clock/clock.js';
import type { Delivery } from '../domain/entities.js';
import type { ChangeFeed, DeliveriesRepo, RecordedAttempt } from '../domain/ports.js';
import type { ClockOffsets } from './clock-offsets.js';
import { faultVerdict, givesUp } from './faults.js';
import { send, type SendDeps } from './outcomes.js';
import { retryDelaySeconds } from './retries.js';
import { webhookHeaders } from './signing.js';
import type { Signatures } from './signing-ahead.js';

/** An attempt as `DispatcherDeps.onAttempt` hears of it, once recorded (the domain's `RecordedAttempt`). */
export type AttemptReport = RecordedAttempt<Delivery>;

export interface AttemptDeps {
  clock: Clock;
  deliveries: Pick<DeliveriesRepo, 'byId' | 'recordAttempt'>;
  feed: ChangeFeed;
  /** `--webhook-timezone` of the timestamp header. */
  timeZone: string;
  send: SendDeps;
  signatures: Signatures;
  offsets: ClockOffsets;
  /** Monotonic milliseconds, for the recorded duration. */
  realNow: () => number;
  /** Set while stopping: no attempt starts. */
  draining: () => boolean;
  /** The attempt of `row` was recorded (before the feed hears of it). */
  recorded: (row: Delivery) => void;
  onAttempt?: (attempt: AttemptReport) => void;
}

/** Attempts a delivery admitted at clock offset `admittedOffset`, if it is still pending and due. */
export async function attempt(deps: AttemptDeps, id: string, admittedOffset: number): Promise<void> {
  const { deliveries, clock, timeZone, offsets } = deps;
  if (deps.draining()) return;
  const row = deliveries.byId(id);
  if (!row || row.status !== 'pending' || row.next_attempt_at === null || row.next_attempt_at > clock.nowMs()) return;
  const number = row.attempts + 1;
  const signed = await deps.signatures.of(row);
  // Never before it fell due (a retry on the timeline of an advance that moved past it).
  const start = offsets.instant(admittedOffset);
  const at = Math.max(row.next_attempt_at, start);
  const headers = webhookHeaders(row.body, new Date(at), timeZone, () => signed);
  const started = deps.realNow();
  const outcome = await send(deps.send, row, number, headers);
  if (outcome.aborted) return; // stopping: left pending for the next start
  const duration = deps.realNow() - started;
  const now = at + (offsets.instant(admittedOffset) - start);
  outcome.error = faultVerdict(row, outcome);
  const giveUp = givesUp(row, number, outcome.ok);
  const retryAt = outcome.ok || giveUp ? null : now + retryDelaySeconds(number) * 1000;
  if (retryAt !== null && retryAt <= clock.nowMs()) offsets.overdue(id, admittedOffset);
  deliveries.recordAttempt(
    {
      delivery_id: id,
      number,
      at,
      url: row.url,
      request_headers: headers,
      response_status: outcome.status,
      response_body: outcome.body,
      error: outcome.error,
      duration_ms: Math.round(duration * 100) / 100,
      ok: outcome.ok,
    },
    {
      status: outcome.ok ? 'delivered' : giveUp ? 'failed' : 'pending',
      attempts: number,
      next_attempt_at: retryAt,
      delivered_at: outcome.ok ? now : row.delivered_at,
      updated_at: now,
    },
  );
  deps.recorded(row);
  deps.onAttempt?.({
    delivery: row,
    number,
    ok: outcome.ok,
    status: outcome.status,
    contacted: outcome.contacted === true,
    timedOut: outcome.timedOut === true,
    durationMs: duration,
  });
  deps.feed.emit('delivery.attempted', row.account_id, {
    id,
    number,
    ok: outcome.ok,
    status: outcome.status,
    error: outcome.error,
    at: isoTimestamp(at),
    kind: row.kind,
    resource_id: row.resource_id,
    url: row.url,
    next_attempt_at: retryAt === null ? null : isoTimestamp(retryAt),
  });
}
