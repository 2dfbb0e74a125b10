/**
 * The go-live report's findings: what is kept of each account
 * (a finding's exact count and the first ids that show it, the coverage scenarios seen), where
 * it is kept between starts, and the report built from it, each finding worded with its count.
 */
import {
  COVERAGE_HOW,
  COVERAGE_SCENARIOS,
  FINDING_CODES,
  RULES,
  compareFindings,
  findingDocs,
  noWebhookTargetFix,
  type CoverageScenario,
  type GoLiveFindingCode,
} from './go-live.js';
import type { CoverageEntry, GoLiveEvidence, GoLiveFinding, GoLiveReport } from './report.schemas.js';
import { POLLING_MORE_THAN } from './go-live-observations.js';

/** A finding's aggregate: its exact count and the first ids that show it. */
export interface FindingAggregate {
  count: number;
  request_ids: number[];
  delivery_ids: string[];
  transaction_ids: string[];
  /** For `no_webhook_target`: the kinds of resource whose payments had no target. */
  resources?: ('transaction' | 'subscription')[];
}

/**
 * Where the findings of requests that named no known account are kept (an `sk_live_` key
 * alone): reported with `account_id: null`, in every report whatever its account filter.
 */
export const NO_ACCOUNT = '';

/** What is kept (and persisted) of one account: its findings and the scenarios seen. */
export interface GoLiveAccountState {
  findings: Partial<Record<GoLiveFindingCode, FindingAggregate>>;
  coverage: CoverageScenario[];
  /**
   * The transactions and subscriptions that descend from requests the report skips (the
   * conformance kit's), oldest first: their outcomes, refunds, renewals and deliveries are
   * not the merchant's.
   */
  not_merchants?: string[];
}

/** Whether an account's state holds anything the report shows (a finding or a scenario seen). */
const shown = (state: GoLiveAccountState): boolean =>
  state.coverage.length > 0 || Object.values(state.findings).some((agg) => agg !== undefined && agg.count > 0);

/** Where the aggregates are kept between starts (`go-live-store.ts`). */
export interface GoLiveStateRepo {
  /** Every account's state as last saved. */
  loadAll(): Map<string, GoLiveAccountState>;
  /** Saves an account's state (may be written a moment later, and before any close). */
  save(accountId: string, state: GoLiveAccountState): void;
  /** Forgets every account's state. */
  clear(): void;
}

/** What a finding's wording needs of the dispatcher's limits. */
export interface FindingWording {
  /** A handler that takes longer than this (ms) to answer is slow. */
  slowHandlerMs: number;
  /** The delivery timeout (ms). */
  timeoutMs: number;
}

/**
 * The report: every account's findings (or only `accountId`'s), errors first; the coverage
 * of `accountId`, or of every account that has any finding or coverage. Each scenario of
 * `required` that an account of the report has not seen is a `coverage_missing` finding of
 * that account; with no account in the report (no traffic yet), one without an account.
 */
export function buildReport(
  states: ReadonlyMap<string, GoLiveAccountState>,
  accountId: string | undefined,
  generatedAt: string,
  wording: FindingWording,
  required: readonly CoverageScenario[] = [],
): GoLiveReport {
  const accounts =
    accountId !== undefined ? [accountId] : [...states].filter(([id, state]) => id !== NO_ACCOUNT && shown(state)).map(([id]) => id);
  const findings: GoLiveFinding[] = [];
  const coverage: CoverageEntry[] = [];
  const withoutAccount = states.get(NO_ACCOUNT);
  if (withoutAccount && accountId !== NO_ACCOUNT) {
    for (const code of FINDING_CODES) {
      const agg = withoutAccount.findings[code];
      if (agg && agg.count > 0) findings.push(toFinding(null, code, agg, wording));
    }
  }
  for (const id of accounts) {
    const state = states.get(id);
    for (const code of FINDING_CODES) {
      const agg = state?.findings[code];
      if (agg && agg.count > 0) findings.push(toFinding(id === NO_ACCOUNT ? null : id, code, agg, wording));
    }
    if (id === NO_ACCOUNT) continue;
    for (const scenario of COVERAGE_SCENARIOS) {
      coverage.push({ scenario, account_id: id, seen: state?.coverage.includes(scenario) ?? false, ...COVERAGE_HOW[scenario] });
    }
  }
  const reported = [...new Set(coverage.map((c) => c.account_id))];
  for (const account of reported.length > 0 ? reported : [null]) {
    for (const scenario of required) {
      const seen = account !== null && (states.get(account)?.coverage.includes(scenario) ?? false);
      if (!seen) findings.push(coverageMissing(account, scenario));
    }
  }
  findings.sort(compareFindings);
  const count = (severity: GoLiveFinding['severity']) => findings.filter((f) => f.severity === severity).length;
  return {
    generated_at: generatedAt,
    summary: { errors: count('error'), warnings: count('warning'), infos: count('info') },
    findings,
    coverage,
  };
}

/** The finding of a required scenario that `accountId` (null: no account had traffic) has not seen. */
function coverageMissing(accountId: string | null, scenario: CoverageScenario): GoLiveFinding {
  const rule = RULES.coverage_missing;
  const whose = accountId === null ? 'no account has traffic yet' : 'its tests never went through it';
  return {
    code: 'coverage_missing',
    severity: rule.severity,
    account_id: accountId,
    title: rule.title,
    detail: `The required scenario ${scenario} was not seen: ${whose}.`,
    evidence: { count: 1 },
    fix: COVERAGE_HOW[scenario].how,
    docs: findingDocs('coverage_missing'),
    scenario,
  };
}

function toFinding(accountId: string | null, code: GoLiveFindingCode, agg: FindingAggregate, wording: FindingWording): GoLiveFinding {
  const rule = RULES[code];
  const evidence: GoLiveEvidence = { count: agg.count };
  if (agg.request_ids.length > 0) evidence.request_ids = [...agg.request_ids];
  if (agg.delivery_ids.length > 0) evidence.delivery_ids = [...agg.delivery_ids];
  if (agg.transaction_ids.length > 0) evidence.transaction_ids = [...agg.transaction_ids];
  return {
    code,
    severity: rule.severity,
    account_id: accountId,
    title: rule.title,
    detail: findingDetail(code, agg.count, wording),
    evidence,
    fix: code === 'no_webhook_target' ? noWebhookTargetFix(agg.resources ?? []) : rule.fix,
    docs: findingDocs(code),
  };
}

/** One sentence on what happened, with the count. */
export function findingDetail(code: GoLiveFindingCode, n: number, wording: FindingWording): string {
  const times = n === 1 ? 'once' : `${n} times`;
  const s = n === 1 ? '' : 's';
  switch (code) {
    case 'missing_idempotency_key':
      return `${n} create${s} (transaction, refund or subscription) ran without an Idempotency-Key: a retry after a timeout would create ${n === 1 ? 'it' : 'them'} again.`;
    case 'duplicate_charge_risk':
      return `${n} transaction${s} repeated an earlier payment of the same order under a different or no Idempotency-Key: after a create whose answer never reached the client, or with the same amount, currency and external_identifier as one not failed (within 10 minutes), or the same body without any key (within 60 seconds). In production the customer is charged twice.`;
    case 'duplicate_refund_risk':
      return `${n} refund${s} repeated an earlier refund of the same transaction and amount under a different or no Idempotency-Key: after a refund whose answer never reached the client (within 10 minutes), or the same body without any key (within 60 seconds). In production the money goes back twice.`;
    case 'repeated_invalid_request':
      return `${n} request${s} repeated, unchanged, a request already refused with a 4xx twice before: the third sending of a refused request and each one after it.`;
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
      return `${n} webhook${s} took more than ${wording.slowHandlerMs / 1000} s to be answered (the limit is ${wording.timeoutMs / 1000} s).`;
    case 'webhook_timeout':
      return `${n} webhook attempt${s} got no answer within ${wording.timeoutMs / 1000} s: the sandbox gave up and retries, as production does.`;
    case 'webhook_duplicate_not_tolerated':
      return `A webhook delivered a second time was refused ${times} although the first copy was acknowledged.`;
    case 'no_webhook_target':
      return `${n} payment${s} reached ${n === 1 ? 'its' : 'their'} outcome with no webhook URL (notification_url, or payment_method.webhooks_url for a subscription) and no --notification-url: nobody was told.`;
    case 'webhook_unreachable':
      return `${n} webhook${s} got no HTTP answer at all from ${n === 1 ? 'its' : 'their'} URL on two attempts or more (connection refused, name not resolved, or reset): the handler is not reachable from the sandbox.`;
    case 'webhook_state_mismatch':
      return `${n} payment webhook${s} ${n === 1 ? 'was' : 'were'} acknowledged, yet the state URL of the check-webhooks run then showed the order with another payment_status than the payment's outcome.`;
    case 'coverage_missing':
      return `${n} required scenario${s} ${n === 1 ? 'was' : 'were'} not seen.`;
    case 'ignored_webhook_field':
      return `${n} subscription create${s} carried a top-level notification_url, which subscriptions ignore: ${n === 1 ? 'its' : 'their'} webhooks go only to payment_method.webhooks_url.`;
  }
}
