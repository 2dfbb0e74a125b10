/**
 * The go-live report's aggregates, updated as traffic
 * happens: the HTTP layer reports each logged /v4 request, the webhook dispatcher each
 * delivery attempt, the domain each outcome and refund. Nothing here reads a log, so the
 * report costs the same after a million requests as after ten, and request-log retention
 * never loses a finding. Each finding keeps an exact count and the first
 * `EVIDENCE_IDS_MAX` ids of each kind; the trackers behind the windowed rules (duplicate
 * charges, repeated invalid requests, Retry-After, polling) are bounded per account.
 *
 * The rules reason about money intents: a payment intent is an order (its
 * external_identifier, or without one its create body), a refund intent a transaction and an
 * amount; a duplicate is one intent that moved money twice. They are written not to cry wolf:
 * only creates that ran count as creates; a replay under the same Idempotency-Key is never a
 * duplicate; two identical bodies under two keys whose answers both reached the client are
 * two orders; an order created again after it FAILED is a retry done right; creates are
 * judged in the order they STARTED (their arrival on the account's clock), not the order they
 * were logged or learnt lost in, so a retry sent while the first create is still held is paired
 * with it all the same; refused bad-signature webhooks and
 * webhooks the sandbox failed on purpose (scenario `webhook_failures`) are not the
 * merchant's fault; a webhook canary counts only for whether it was refused; requests that asked for a fault (`X-Sandbox-Fault`) are deliberate.
 * The control API, the panel and the check-webhooks battery never reach these hooks; the
 * conformance kit's requests are skipped, and what they create is marked (`notTheMerchants`)
 * so that its outcomes, refunds and deliveries are not heard either.
 */
import { EVIDENCE_IDS_MAX, type CoverageScenario, type GoLiveFindingCode } from './go-live.js';
import type { GoLiveReport } from './report.schemas.js';
import { NO_ACCOUNT, buildReport, type FindingAggregate, type GoLiveAccountState, type GoLiveStateRepo } from './go-live-findings.js';
import {
  DUPLICATE_WINDOW_MS,
  IDENTICAL_BODY_WINDOW_MS,
  INTENT_CREATES_MAX,
  LATE_CREATE_MS,
  NOT_MERCHANTS_MAX,
  POLLING_MORE_THAN,
  REPEATED_INVALID_AT,
  TRACKER_ENTRIES_MAX,
  UNREACHABLE_AT,
  type ObservedAttempt,
  type ObservedOutcome,
  type ObservedRequest,
} from './go-live-observations.js';

export interface GoLiveTrackerDeps {
  repo: GoLiveStateRepo;
  /** A handler that takes longer than this (ms) to answer is slow (half the delivery timeout). */
  slowHandlerMs: number;
  /** The delivery timeout (ms), for the findings' wording. */
  timeoutMs: number;
  /** The instant the report is generated at, ISO 8601. */
  now: () => string;
  /** Hears that an account's findings or coverage changed. */
  onChange?: (accountId: string) => void;
}

/** A create remembered by its intent, for the duplicate rules. */
interface CreateEntry {
  /** The transaction it created, or the refunded one. */
  transactionId: string;
  key: string | null;
  /** When it started: its request's arrival on the account's clock (ms). */
  at: number;
  requestId: number;
  /** Whether its answer reached the client (false may be learnt after the fact). */
  delivered: boolean;
  /** Sent without any key: its fingerprint (method, path, body), for two identical keyless creates. */
  keyless: string | null;
  /** Already counted as the repeat of an earlier create (each create is counted once). */
  counted: boolean;
}

/** Whether a started before b (the request log's order breaks a tie). */
const startedBefore = (a: CreateEntry, b: CreateEntry): boolean => a.at < b.at || (a.at === b.at && a.requestId < b.requestId);

/** The windowed trackers of one account (memory only, bounded). */
interface Windows {
  /**
   * Payment creates by intent (`x amount currency external_identifier`, or `b fingerprint`
   * without one), each intent's in the order they started, whatever order they were heard in.
   */
  creates: Map<string, CreateEntry[]>;
  /** Refunds by intent (`transaction amount`), in the order they started. */
  refunds: Map<string, CreateEntry[]>;
  /** Transactions that reached FAILED, and when (the account's clock, ms): an order retried after it failed is no duplicate. */
  failed: Map<string, number>;
  invalid: Map<string, { count: number; ids: number[] }>;
  retryAfter: Map<string, number>;
  polls: Map<string, number>;
  /** Attempts of each delivery that got no HTTP answer at all. */
  unanswered: Map<string, number>;
}

/** Sets `key` in an insertion-ordered map bounded at `max` entries (the oldest goes first). */
function boundedSet<K, V>(map: Map<K, V>, key: K, value: V, max = TRACKER_ENTRIES_MAX): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}

const pushId = <T>(list: T[], id: T): void => {
  if (list.length < EVIDENCE_IDS_MAX && !list.includes(id)) list.push(id);
};

/** A payment intent: its order (amount, currency, external_identifier), or without one its create body. */
const paymentIntent = (r: ObservedRequest): string => {
  const tx = r.createdTransaction!;
  return tx.external_identifier !== null ? `x ${tx.amount} ${tx.currency} ${tx.external_identifier}` : `b ${r.fingerprint()}`;
};

/** A refund intent: the refunded transaction and the amount. */
const refundIntent = (r: ObservedRequest): string => `${r.createdRefund!.transactionId} ${r.createdRefund!.amount}`;

/** What the duplicate rules remember of a create. */
const entryOf = (r: ObservedRequest, transactionId: string, delivered: boolean): CreateEntry => ({
  transactionId,
  key: r.idempotencyKey,
  at: r.atMs,
  requestId: r.requestId,
  delivered,
  keyless: r.idempotencyKey === null ? r.fingerprint() : null,
  counted: false,
});

/** Puts a create among its intent's, in the order they started (at most `INTENT_CREATES_MAX`, the earliest dropped); returns them. */
function remember(map: Map<string, CreateEntry[]>, intent: string, entry: CreateEntry): CreateEntry[] {
  const list = map.get(intent) ?? [];
  let at = list.length;
  while (at > 0 && startedBefore(entry, list[at - 1]!)) at -= 1;
  list.splice(at, 0, entry);
  if (list.length > INTENT_CREATES_MAX) list.shift();
  boundedSet(map, intent, list);
  return list;
}

/**
 * Drops intents whose latest create started too long ago to pair with any create still to be
 * heard: the window, plus the longest a create can be held before it is logged (oldest first).
 */
function dropExpired(map: Map<string, CreateEntry[]>, nowMs: number): void {
  for (const [intent, list] of map) {
    if (nowMs - list[list.length - 1]!.at <= DUPLICATE_WINDOW_MS + LATE_CREATE_MS) break;
    map.delete(intent);
  }
}

/** Whether `later` repeats `earlier` under another key or none (a replay under the same key is never a duplicate). */
const anotherKey = (earlier: CreateEntry, later: CreateEntry): boolean => later.key === null || earlier.key !== later.key;

/** Whether `later` refunds the refund intent of `earlier` twice (both of it, another key or none). */
const refundRule = (earlier: CreateEntry, later: CreateEntry): boolean => {
  const since = later.at - earlier.at;
  if (since > DUPLICATE_WINDOW_MS) return false;
  return !earlier.delivered || (earlier.keyless !== null && earlier.keyless === later.keyless && since <= IDENTICAL_BODY_WINDOW_MS);
};

/** The Retry-After identity of a request: method, path and body, and its Idempotency-Key (or none). */
const retryKey = (r: ObservedRequest): string =>
  r.idempotencyKey === null ? `${r.fingerprint()} -` : `${r.fingerprint()} k${r.idempotencyKey}`;

export class GoLiveTracker {
  private readonly states: Map<string, GoLiveAccountState>;
  private readonly windows = new Map<string, Windows>();
  /** Each account's `not_merchants`, as a set. */
  private readonly marks = new Map<string, Set<string>>();

  constructor(private readonly deps: GoLiveTrackerDeps) {
    this.states = deps.repo.loadAll();
  }

  // ------------------------------------------------------------ observations

  /** A logged /v4 request. */
  request(r: ObservedRequest): void {
    const accountId = r.accountId;
    const ids = { request: r.requestId, transaction: r.transactionId ?? undefined };
    if (r.liveKey) this.raise(accountId ?? NO_ACCOUNT, 'live_key_used', ids);
    if (accountId === null) return;
    if (r.cardDataInCheckout) this.raise(accountId, 'card_data_in_checkout_mode', ids);
    if (r.ignoredWebhookField) this.raise(accountId, 'ignored_webhook_field', ids);
    if (r.fault) this.see(accountId, 'api_fault');
    const ran = r.executedStatus >= 200 && r.executedStatus < 300;
    if (r.create !== null && ran && r.idempotencyKey === null) {
      this.raise(accountId, 'missing_idempotency_key', {
        request: r.requestId,
        transaction: r.createdTransaction?.id ?? r.transactionId ?? undefined,
      });
    }
    const w = this.windowsOf(accountId);
    if (r.createdTransaction && !r.replayed) this.checkDuplicate(accountId, w, r);
    if (r.createdRefund && !r.replayed) this.checkDuplicateRefund(accountId, w, r);

    // Retry-After: the same request (method, path, body) again before the deadline of its 429,
    // under the same Idempotency-Key or, as before, none. Another key is another request.
    if (w.retryAfter.size > 0) {
      const retry = retryKey(r);
      const deadline = w.retryAfter.get(retry);
      if (deadline !== undefined) {
        if (r.realMs < deadline) this.raise(accountId, 'ignored_retry_after', ids);
        w.retryAfter.delete(retry);
      }
    }
    if (r.status === 429 && r.retryAfterS !== null) boundedSet(w.retryAfter, retryKey(r), r.realMs + r.retryAfterS * 1000);

    // The same request refused again and again (faults, rate limits and concurrency are not refusals).
    if (r.status >= 400 && r.status < 500 && r.status !== 429 && r.status !== 409 && !r.fault && !r.liveKey) {
      const fingerprint = r.fingerprint();
      const seen = w.invalid.get(fingerprint) ?? { count: 0, ids: [] };
      seen.count += 1;
      if (seen.ids.length < REPEATED_INVALID_AT) seen.ids.push(r.requestId);
      boundedSet(w.invalid, fingerprint, seen);
      // The first of the series is the original: the third sending is the first repeat counted.
      if (seen.count === REPEATED_INVALID_AT) this.raiseMany(accountId, 'repeated_invalid_request', seen.ids, 1);
      else if (seen.count > REPEATED_INVALID_AT) this.raise(accountId, 'repeated_invalid_request', ids);
    }

    if (r.readPending && r.transactionId !== null) {
      const polls = (w.polls.get(r.transactionId) ?? 0) + 1;
      boundedSet(w.polls, r.transactionId, polls);
      if (polls === POLLING_MORE_THAN + 1) this.raise(accountId, 'polling_instead_of_webhooks', ids);
    }
  }

  /** A webhook delivery attempt. */
  attempt(a: ObservedAttempt): void {
    const { accountId } = a;
    const ids = { delivery: a.deliveryId, transaction: a.transactionId };
    if (!a.contacted) return;
    const answered = a.status !== null;
    // A canary's answer says only whether the handler verifies signatures: no answer is not a
    // missed delivery. Only a refusal (4xx) shows the bad signature handled; an acknowledgement is the finding.
    if (a.canary) {
      if (a.ok) this.raise(accountId, 'webhook_signature_not_verified', ids);
      else if (a.status !== null && a.status >= 400 && a.status < 500) this.see(accountId, 'webhook_bad_signature');
      return;
    }
    if (!answered && !a.timedOut) {
      const w = this.windowsOf(accountId);
      const unanswered = (w.unanswered.get(a.deliveryId) ?? 0) + 1;
      boundedSet(w.unanswered, a.deliveryId, unanswered);
      if (unanswered === UNREACHABLE_AT) this.raise(accountId, 'webhook_unreachable', ids);
    }
    if (a.timedOut) this.raise(accountId, 'webhook_timeout', ids);
    else if (answered && a.durationMs > this.deps.slowHandlerMs) this.raise(accountId, 'webhook_slow_handler', ids);
    if (a.ok && a.number > 1) this.see(accountId, 'webhook_retry');
    switch (a.fault) {
      case 'bad_signature':
        if (answered) this.see(accountId, 'webhook_bad_signature');
        if (a.ok) this.raise(accountId, 'webhook_signature_not_verified', ids);
        return;
      case 'duplicate':
        if (a.ok) this.see(accountId, 'webhook_duplicate');
        else if (answered && a.originalAcknowledged) this.raise(accountId, 'webhook_duplicate_not_tolerated', ids);
        else if (answered) this.raise(accountId, 'webhook_not_acknowledged', ids);
        return;
      default:
        if (a.fault === 'out_of_order' && a.ok && a.kind === 'payment') this.see(accountId, 'webhook_out_of_order');
        if (answered && !a.ok) this.raise(accountId, 'webhook_not_acknowledged', ids);
    }
  }

  /**
   * A create whose answer turned out, after it was observed, not to have reached the client
   * (the connection closed before the answer was written): the same observation, heard again.
   */
  undelivered(r: ObservedRequest): void {
    if (r.accountId === null || r.replayed) return;
    const accountId = r.accountId;
    const w = this.windowsOf(accountId);
    // Learnt late: the creates that started after it within the window and were heard first are judged again.
    const mark = (map: Map<string, CreateEntry[]>, intent: string, transactionId: string): CreateEntry[] | undefined => {
      const list = map.get(intent);
      const known = list?.find((e) => e.requestId === r.requestId);
      if (known !== undefined) known.delivered = false;
      return known !== undefined ? list : remember(map, intent, entryOf(r, transactionId, false));
    };
    if (r.createdTransaction) {
      const intent = paymentIntent(r);
      const list = mark(w.creates, intent, r.createdTransaction.id)!;
      this.judge(accountId, 'duplicate_charge_risk', list, r.requestId, this.chargeRule(w, intent));
    }
    if (r.createdRefund) {
      const list = mark(w.refunds, refundIntent(r), r.createdRefund.transactionId)!;
      this.judge(accountId, 'duplicate_refund_risk', list, r.requestId, refundRule);
    }
  }

  /** A payment's outcome. */
  outcome(o: ObservedOutcome): void {
    const { accountId } = o;
    if (o.status === 'FAILED') boundedSet(this.windowsOf(accountId).failed, o.transactionId, o.atMs);
    this.see(accountId, o.status === 'SUCCEEDED' ? 'payment_succeeded' : 'payment_failed');
    if (o.linkExpired) this.see(accountId, 'link_expired');
    if (o.renewal) this.see(accountId, o.status === 'SUCCEEDED' ? 'subscription_renewal' : 'subscription_past_due');
    if (o.noTarget) {
      this.raise(accountId, 'no_webhook_target', { transaction: o.transactionId });
      const agg = this.aggregate(this.stateOf(accountId), 'no_webhook_target');
      const resource = o.subscription ? 'subscription' : 'transaction';
      if (!(agg.resources ??= []).includes(resource)) agg.resources.push(resource);
    }
  }

  /** A refund; `partial` when it left something to refund. */
  refund(accountId: string, partial: boolean): void {
    this.see(accountId, 'refund');
    if (partial) this.see(accountId, 'partial_refund');
  }

  /** The customer pressed Cancel on the payment page. */
  customerCancelled(accountId: string): void {
    this.see(accountId, 'customer_cancelled');
  }

  /**
   * Marks a transaction or a subscription as not the merchant's: it was created by a request
   * the report skips (the conformance kit's), or descends from one. Its outcomes, refunds,
   * renewals and deliveries are then not heard (`isNotTheMerchants`).
   */
  notTheMerchants(accountId: string, id: string): void {
    const marks = this.marksOf(accountId);
    if (marks.has(id)) return;
    const state = this.stateOf(accountId);
    const list = (state.not_merchants ??= []);
    list.push(id);
    marks.add(id);
    if (list.length > NOT_MERCHANTS_MAX) marks.delete(list.shift()!);
    this.deps.repo.save(accountId, state);
  }

  /** Whether a transaction or a subscription of the account is not the merchant's (`notTheMerchants`). */
  isNotTheMerchants(accountId: string, id: string | null): boolean {
    if (id === null) return false;
    return this.marksOf(accountId).has(id);
  }

  /** Forgets every finding and all coverage (`POST /_sandbox/reset`). */
  clear(): void {
    this.states.clear();
    this.windows.clear();
    this.marks.clear();
    this.deps.repo.clear();
  }

  // ------------------------------------------------------------ the report

  /**
   * The report: every account's findings (or only `accountId`'s), errors first; the coverage
   * of `accountId`, or of every account that has any finding or coverage; a `coverage_missing`
   * finding for each scenario of `requireCoverage` such an account has not seen.
   */
  report(accountId?: string, requireCoverage: readonly CoverageScenario[] = []): GoLiveReport {
    return buildReport(this.states, accountId, this.deps.now(), this.deps, requireCoverage);
  }

  // ------------------------------------------------------------ internals

  private marksOf(accountId: string): Set<string> {
    let marks = this.marks.get(accountId);
    if (!marks) {
      marks = new Set(this.states.get(accountId)?.not_merchants);
      this.marks.set(accountId, marks);
    }
    return marks;
  }

  private windowsOf(accountId: string): Windows {
    let w = this.windows.get(accountId);
    if (!w) {
      w = {
        creates: new Map(),
        refunds: new Map(),
        failed: new Map(),
        invalid: new Map(),
        retryAfter: new Map(),
        polls: new Map(),
        unanswered: new Map(),
      };
      this.windows.set(accountId, w);
    }
    return w;
  }

  /**
   * One payment intent charged twice, under another key or none: (a) within 10 minutes after
   * a create of the same intent whose answer never reached the client; (b) the same amount,
   * currency and external_identifier within 10 minutes, unless the earlier payment had FAILED
   * when the later one was created (a declined card, a cancelled payment page, an expired
   * link: retrying is right); (c) the same body twice without any key within 60 seconds. Two
   * identical bodies under two keys, both answered, are two orders. "Earlier" and "later" are
   * the order the creates started in.
   */
  private checkDuplicate(accountId: string, w: Windows, r: ObservedRequest): void {
    const intent = paymentIntent(r);
    const list = remember(w.creates, intent, entryOf(r, r.createdTransaction!.id, r.answerDelivered));
    this.judge(accountId, 'duplicate_charge_risk', list, r.requestId, this.chargeRule(w, intent));
    dropExpired(w.creates, r.atMs);
  }

  /** Whether `later` charges the payment intent `intent` of `earlier` twice (both of it, another key or none). */
  private chargeRule(w: Windows, intent: string): (earlier: CreateEntry, later: CreateEntry) => boolean {
    const byOrder = intent.startsWith('x ');
    return (earlier, later) => {
      const since = later.at - earlier.at;
      if (since > DUPLICATE_WINDOW_MS) return false;
      if (!earlier.delivered) return true;
      const failedAt = w.failed.get(earlier.transactionId);
      if (byOrder && (failedAt === undefined || failedAt > later.at)) return true;
      return earlier.keyless !== null && earlier.keyless === later.keyless && since <= IDENTICAL_BODY_WINDOW_MS;
    };
  }

  /**
   * One refund intent (a transaction and an amount) refunded twice, under another key or none:
   * within 10 minutes after a refund whose answer never reached the client, or the same body
   * twice without any key within 60 seconds. Two equal partial refunds, both answered, are two
   * refunds. "After" is the order the refunds started in.
   */
  private checkDuplicateRefund(accountId: string, w: Windows, r: ObservedRequest): void {
    const list = remember(w.refunds, refundIntent(r), entryOf(r, r.createdRefund!.transactionId, r.answerDelivered));
    this.judge(accountId, 'duplicate_refund_risk', list, r.requestId, refundRule);
    dropExpired(w.refunds, r.atMs);
  }

  /**
   * Judges the create `requestId` among its intent's creates (`list`, in the order they
   * started) both ways: as the repeat of the nearest earlier one, and as the earlier create of
   * each later one already heard (logged first, or heard before its answer was known lost). Each
   * create is counted once, as a repeat.
   */
  private judge(
    accountId: string,
    code: GoLiveFindingCode,
    list: readonly CreateEntry[],
    requestId: number,
    repeats: (earlier: CreateEntry, later: CreateEntry) => boolean,
  ): void {
    const at = list.findIndex((e) => e.requestId === requestId);
    if (at < 0) return;
    const entry = list[at]!;
    for (let i = at - 1; i >= 0 && !entry.counted; i -= 1) {
      const earlier = list[i]!;
      if (anotherKey(earlier, entry) && repeats(earlier, entry)) this.raisePair(accountId, code, earlier, entry);
    }
    for (let i = at + 1; i < list.length; i += 1) {
      const later = list[i]!;
      if (!later.counted && anotherKey(entry, later) && repeats(entry, later)) this.raisePair(accountId, code, entry, later);
    }
  }

  /** A duplicate: the earlier create and the later one, both in the evidence. */
  private raisePair(accountId: string, code: GoLiveFindingCode, earlier: CreateEntry, later: CreateEntry): void {
    later.counted = true;
    const state = this.stateOf(accountId);
    const agg = this.aggregate(state, code);
    agg.count += 1;
    pushId(agg.request_ids, earlier.requestId);
    pushId(agg.request_ids, later.requestId);
    pushId(agg.transaction_ids, earlier.transactionId);
    pushId(agg.transaction_ids, later.transactionId);
    this.changed(accountId, state);
  }

  private stateOf(accountId: string): GoLiveAccountState {
    let state = this.states.get(accountId);
    if (!state) {
      state = { findings: {}, coverage: [] };
      this.states.set(accountId, state);
    }
    return state;
  }

  private aggregate(state: GoLiveAccountState, code: GoLiveFindingCode): FindingAggregate {
    let agg = state.findings[code];
    if (!agg) {
      agg = { count: 0, request_ids: [], delivery_ids: [], transaction_ids: [] };
      state.findings[code] = agg;
    }
    return agg;
  }

  /** A delivered payment webhook whose order the merchant's state URL then showed with another status. */
  stateMismatch(accountId: string, deliveryId: string, transactionId: string): void {
    this.raise(accountId, 'webhook_state_mismatch', { delivery: deliveryId, transaction: transactionId });
  }

  private raise(
    accountId: string,
    code: GoLiveFindingCode,
    ids: { request?: number; delivery?: string; transaction?: string | undefined },
  ): void {
    const state = this.stateOf(accountId);
    const agg = this.aggregate(state, code);
    agg.count += 1;
    if (ids.request !== undefined) pushId(agg.request_ids, ids.request);
    if (ids.delivery !== undefined) pushId(agg.delivery_ids, ids.delivery);
    if (ids.transaction !== undefined) pushId(agg.transaction_ids, ids.transaction);
    this.changed(accountId, state);
  }

  private raiseMany(accountId: string, code: GoLiveFindingCode, requestIds: readonly number[], count: number): void {
    const state = this.stateOf(accountId);
    const agg = this.aggregate(state, code);
    agg.count += count;
    for (const id of requestIds) pushId(agg.request_ids, id);
    this.changed(accountId, state);
  }

  private see(accountId: string, scenario: CoverageScenario): void {
    const state = this.stateOf(accountId);
    if (state.coverage.includes(scenario)) return;
    state.coverage.push(scenario);
    this.changed(accountId, state);
  }

  private changed(accountId: string, state: GoLiveAccountState): void {
    this.deps.repo.save(accountId, state);
    this.deps.onChange?.(accountId);
  }
}
