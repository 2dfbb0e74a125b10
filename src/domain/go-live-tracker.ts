/**
 * The go-live report's aggregates (contract: "The go-live report"), updated as traffic
 * happens: the HTTP layer reports each logged /v4 request, the webhook dispatcher each
 * delivery attempt, the domain each outcome and refund. Nothing here reads a log, so the
 * report costs the same after a million requests as after ten, and request-log retention
 * never loses a finding. Each finding keeps an exact count and the first
 * `EVIDENCE_IDS_MAX` ids of each kind; the trackers behind the windowed rules (duplicate
 * charges, repeated invalid requests, Retry-After, polling) are bounded per account.
 *
 * The rules are written not to cry wolf: only creates that ran count as creates; a replay
 * under the same Idempotency-Key is never a duplicate; refused bad-signature webhooks and
 * webhooks the sandbox failed on purpose (scenario `webhook_failures`) are not the
 * merchant's fault; requests that asked for a fault (`X-Sandbox-Fault`) are deliberate.
 * The control API, the panel and the check-webhooks battery never reach these hooks.
 */
import type { DeliveryFault, DeliveryKind } from './entities.js';
import {
  COVERAGE_HOW,
  COVERAGE_SCENARIOS,
  EVIDENCE_IDS_MAX,
  FINDING_CODES,
  RULES,
  compareFindings,
  findingDocs,
  type CoverageEntry,
  type CoverageScenario,
  type GoLiveEvidence,
  type GoLiveFinding,
  type GoLiveFindingCode,
  type GoLiveReport,
} from './go-live.js';

/** A finding's aggregate: its exact count and the first ids that show it. */
export interface FindingAggregate {
  count: number;
  request_ids: number[];
  delivery_ids: string[];
  transaction_ids: string[];
}

/** What is kept (and persisted) of one account: its findings and the scenarios seen. */
export interface GoLiveAccountState {
  findings: Partial<Record<GoLiveFindingCode, FindingAggregate>>;
  coverage: CoverageScenario[];
}

/** Where the aggregates are kept between starts (`store/go-live.ts`). */
export interface GoLiveStateRepo {
  /** Every account's state as last saved. */
  loadAll(): Map<string, GoLiveAccountState>;
  /** Saves an account's state (may be written a moment later, and before any close). */
  save(accountId: string, state: GoLiveAccountState): void;
  /** Forgets every account's state. */
  clear(): void;
}

/** A logged /v4 request, as the HTTP layer saw it. */
export interface ObservedRequest {
  /** Its request-log id. */
  requestId: number;
  /** A known account (the authenticated one, or the one the header names); null skips the request. */
  accountId: string | null;
  method: string;
  /** Without the query string. */
  path: string;
  /** The status the merchant received (0 or 504 when a fault lost the answer). */
  status: number;
  /** The status of the work itself, before a fault lost its answer. */
  executedStatus: number;
  idempotencyKey: string | null;
  replayed: boolean;
  /** It carried an `sk_live_` key. */
  liveKey: boolean;
  /** A checkout-mode account sent card data (number or security_code). */
  cardDataInCheckout: boolean;
  /** It asked for a fault (`X-Sandbox-Fault`), or a scenario rule played one. */
  fault: boolean;
  /** The Retry-After seconds of its 429, if it got one. */
  retryAfterS: number | null;
  /** Which create it is, if one (counted only when it ran: `executedStatus` 2xx). */
  create: 'transaction' | 'refund' | 'subscription' | null;
  /** The transaction a create made (not a replay), with what identifies the order. */
  createdTransaction: { id: string; amount: number; currency: string; external_identifier: string | null } | null;
  /** The id of the transaction the request is about (refunds, reads), if any. */
  transactionId: string | null;
  /** It read one transaction that was PENDING. */
  readPending: boolean;
  /** Method, path and body (key order ignored), hashed; computed only when a rule needs it. */
  fingerprint: () => string;
  /** The sandbox clock (ms). */
  atMs: number;
  /** Real time (ms): Retry-After is in real seconds. */
  realMs: number;
}

/** A webhook delivery attempt, as the dispatcher made it. */
export interface ObservedAttempt {
  accountId: string;
  deliveryId: string;
  kind: DeliveryKind;
  /** The transaction it is about (a refund's: the refunded one). */
  transactionId: string;
  fault: DeliveryFault | null;
  number: number;
  ok: boolean;
  /** The merchant's handler was called (not a simulated failure, not a refused or missing URL). */
  contacted: boolean;
  /** Its HTTP status, or null when it did not answer. */
  status: number | null;
  timedOut: boolean;
  durationMs: number;
  /** For a `duplicate` copy: whether the webhook it copies was acknowledged. */
  originalAcknowledged: boolean;
}

/** An outcome the domain reached. */
export interface ObservedOutcome {
  accountId: string;
  transactionId: string;
  status: 'SUCCEEDED' | 'FAILED';
  /** No notification URL to send its webhook to. */
  noTarget: boolean;
  /** It failed because its payment link expired. */
  linkExpired: boolean;
  /** A subscription's renewal charge (not its first). */
  renewal: boolean;
}

/** How long two creates of one order count as a retry (sandbox clock). */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
/** How many times the same request answered 4xx is a finding. */
export const REPEATED_INVALID_AT = 3;
/** More GETs than this of one PENDING transaction is polling. */
export const POLLING_MORE_THAN = 10;
/** Entries each windowed tracker keeps per account (oldest dropped first). */
export const TRACKER_ENTRIES_MAX = 1000;

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

/** The windowed trackers of one account (memory only, bounded). */
interface Windows {
  creates: Map<string, { transactionId: string; key: string | null; at: number; requestId: number }>;
  invalid: Map<string, { count: number; ids: number[] }>;
  retryAfter: Map<string, number>;
  polls: Map<string, number>;
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

export class GoLiveTracker {
  private readonly states: Map<string, GoLiveAccountState>;
  private readonly windows = new Map<string, Windows>();

  constructor(private readonly deps: GoLiveTrackerDeps) {
    this.states = deps.repo.loadAll();
  }

  // ------------------------------------------------------------ observations

  /** A logged /v4 request. */
  request(r: ObservedRequest): void {
    const accountId = r.accountId;
    if (accountId === null) return;
    const ids = { request: r.requestId, transaction: r.transactionId ?? undefined };
    if (r.liveKey) this.raise(accountId, 'live_key_used', ids);
    if (r.cardDataInCheckout) this.raise(accountId, 'card_data_in_checkout_mode', ids);
    if (r.fault) this.see(accountId, 'api_fault');
    const ran = r.executedStatus >= 200 && r.executedStatus < 300;
    if (r.create !== null && ran && r.idempotencyKey === null) {
      this.raise(accountId, 'missing_idempotency_key', { request: r.requestId, transaction: r.createdTransaction?.id ?? r.transactionId ?? undefined });
    }
    const w = this.windowsOf(accountId);
    if (r.createdTransaction && !r.replayed) this.checkDuplicate(accountId, w, r);

    // Retry-After: the same request again before the deadline of its 429.
    if (w.retryAfter.size > 0) {
      const fingerprint = r.fingerprint();
      const deadline = w.retryAfter.get(fingerprint);
      if (deadline !== undefined) {
        if (r.realMs < deadline) this.raise(accountId, 'ignored_retry_after', ids);
        w.retryAfter.delete(fingerprint);
      }
    }
    if (r.status === 429 && r.retryAfterS !== null) boundedSet(w.retryAfter, r.fingerprint(), r.realMs + r.retryAfterS * 1000);

    // The same request refused again and again (faults, rate limits and concurrency are not refusals).
    if (r.status >= 400 && r.status < 500 && r.status !== 429 && r.status !== 409 && !r.fault && !r.liveKey) {
      const fingerprint = r.fingerprint();
      const seen = w.invalid.get(fingerprint) ?? { count: 0, ids: [] };
      seen.count += 1;
      if (seen.ids.length < REPEATED_INVALID_AT) seen.ids.push(r.requestId);
      boundedSet(w.invalid, fingerprint, seen);
      if (seen.count === REPEATED_INVALID_AT) this.raiseMany(accountId, 'repeated_invalid_request', seen.ids, REPEATED_INVALID_AT);
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

  /** A payment's outcome. */
  outcome(o: ObservedOutcome): void {
    const { accountId } = o;
    this.see(accountId, o.status === 'SUCCEEDED' ? 'payment_succeeded' : 'payment_failed');
    if (o.linkExpired) this.see(accountId, 'link_expired');
    if (o.renewal) this.see(accountId, o.status === 'SUCCEEDED' ? 'subscription_renewal' : 'subscription_past_due');
    if (o.noTarget) this.raise(accountId, 'no_webhook_target', { transaction: o.transactionId });
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

  /** Forgets every finding and all coverage (`POST /_sandbox/reset`). */
  clear(): void {
    this.states.clear();
    this.windows.clear();
    this.deps.repo.clear();
  }

  // ------------------------------------------------------------ the report

  /**
   * The report: every account's findings (or only `accountId`'s), errors first; the coverage
   * of `accountId`, or of every account that has any finding or coverage.
   */
  report(accountId?: string): GoLiveReport {
    const accounts = accountId !== undefined ? [accountId] : [...this.states.keys()];
    const findings: GoLiveFinding[] = [];
    const coverage: CoverageEntry[] = [];
    for (const id of accounts) {
      const state = this.states.get(id);
      for (const code of FINDING_CODES) {
        const agg = state?.findings[code];
        if (agg && agg.count > 0) findings.push(this.finding(id, code, agg));
      }
      for (const scenario of COVERAGE_SCENARIOS) {
        coverage.push({ scenario, account_id: id, seen: state?.coverage.includes(scenario) ?? false, ...COVERAGE_HOW[scenario] });
      }
    }
    findings.sort(compareFindings);
    const count = (severity: GoLiveFinding['severity']) => findings.filter((f) => f.severity === severity).length;
    return { generated_at: this.deps.now(), summary: { errors: count('error'), warnings: count('warning'), infos: count('info') }, findings, coverage };
  }

  private finding(accountId: string, code: GoLiveFindingCode, agg: FindingAggregate): GoLiveFinding {
    const rule = RULES[code];
    const evidence: GoLiveEvidence = { count: agg.count };
    if (agg.request_ids.length > 0) evidence.request_ids = [...agg.request_ids];
    if (agg.delivery_ids.length > 0) evidence.delivery_ids = [...agg.delivery_ids];
    if (agg.transaction_ids.length > 0) evidence.transaction_ids = [...agg.transaction_ids];
    return { code, severity: rule.severity, account_id: accountId, title: rule.title, detail: this.detail(code, agg.count), evidence, fix: rule.fix, docs: findingDocs(code) };
  }

  /** One sentence on what happened, with the count. */
  private detail(code: GoLiveFindingCode, n: number): string {
    const times = n === 1 ? 'once' : `${n} times`;
    const s = n === 1 ? '' : 's';
    switch (code) {
      case 'missing_idempotency_key':
        return `${n} create${s} (transaction, refund or subscription) ran without an Idempotency-Key: a retry after a timeout would create ${n === 1 ? 'it' : 'them'} again.`;
      case 'duplicate_charge_risk':
        return `${n} transaction${s} repeated an earlier one of the last 10 minutes (same amount, currency and external_identifier) under a different or no Idempotency-Key: in production the customer is charged twice.`;
      case 'repeated_invalid_request':
        return `${n} request${s} repeated one that had already been refused with a 4xx at least twice before, unchanged.`;
      case 'live_key_used':
        return `An sk_live_ key reached the sandbox ${times}: production credentials are in a test configuration.`;
      case 'card_data_in_checkout_mode':
        return `A checkout-mode account sent card data ${times}: its server must never handle card numbers.`;
      case 'ignored_retry_after':
        return `A request answered 429 was sent again before its Retry-After had passed, ${times}.`;
      case 'polling_instead_of_webhooks':
        return `${n} pending transaction${s} ${n === 1 ? 'was' : 'were'} read more than ${POLLING_MORE_THAN} times while waiting for the outcome.`;
      case 'webhook_signature_not_verified':
        return `A webhook whose signature does not match its body was acknowledged ${times}: anyone could forge payment notifications to this handler.`;
      case 'webhook_not_acknowledged':
        return `${n} delivery attempt${s} got an error status or a body other than {"code":"200","message":"SUCCESS"}, so the webhook is sent again.`;
      case 'webhook_slow_handler':
        return `${n} webhook${s} took more than ${this.deps.slowHandlerMs / 1000} s to be answered (the limit is ${this.deps.timeoutMs / 1000} s).`;
      case 'webhook_timeout':
        return `${n} webhook attempt${s} got no answer within ${this.deps.timeoutMs / 1000} s: the sandbox gave up and retries, as production does.`;
      case 'webhook_duplicate_not_tolerated':
        return `A webhook delivered a second time was refused ${times} although the first copy was acknowledged.`;
      case 'no_webhook_target':
        return `${n} payment${s} reached ${n === 1 ? 'its' : 'their'} outcome with no notification_url and no --notification-url: nobody was told.`;
    }
  }

  // ------------------------------------------------------------ internals

  private windowsOf(accountId: string): Windows {
    let w = this.windows.get(accountId);
    if (!w) {
      w = { creates: new Map(), invalid: new Map(), retryAfter: new Map(), polls: new Map() };
      this.windows.set(accountId, w);
    }
    return w;
  }

  /** Two creates of one order within the window, under different (or no) keys. */
  private checkDuplicate(accountId: string, w: Windows, r: ObservedRequest): void {
    const tx = r.createdTransaction!;
    // Without an external_identifier, only a byte-identical body is the same order.
    const order = tx.external_identifier !== null ? `x ${tx.amount} ${tx.currency} ${tx.external_identifier}` : `b ${r.fingerprint()}`;
    const earlier = w.creates.get(order);
    if (earlier && r.atMs - earlier.at <= DUPLICATE_WINDOW_MS && (r.idempotencyKey === null || earlier.key !== r.idempotencyKey)) {
      const state = this.stateOf(accountId);
      const agg = this.aggregate(state, 'duplicate_charge_risk');
      agg.count += 1;
      pushId(agg.request_ids, earlier.requestId);
      pushId(agg.request_ids, r.requestId);
      pushId(agg.transaction_ids, earlier.transactionId);
      pushId(agg.transaction_ids, tx.id);
      this.changed(accountId, state);
    }
    boundedSet(w.creates, order, { transactionId: tx.id, key: r.idempotencyKey, at: r.atMs, requestId: r.requestId });
    // Drop what fell out of the window (oldest first).
    for (const [key, entry] of w.creates) {
      if (r.atMs - entry.at <= DUPLICATE_WINDOW_MS) break;
      w.creates.delete(key);
    }
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

  private raise(accountId: string, code: GoLiveFindingCode, ids: { request?: number; delivery?: string; transaction?: string | undefined }): void {
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
