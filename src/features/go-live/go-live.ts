/**
 * The go-live report's vocabulary: the finding codes with
 * their severity, title, fix and README anchor, the coverage scenarios with how to exercise
 * each (the report document's shape is `report.schemas.ts`). The rules that raise findings live in
 * `go-live-tracker.ts`; this file is what a merchant's CI and the panel read.
 */

/** A finding's severity, highest first. */
export const SEVERITIES = ['error', 'warning', 'info'] as const;

export type GoLiveSeverity = (typeof SEVERITIES)[number];

/** Every finding code, stable: each has an entry in `docs/go-live.md`, anchored by the code itself. */
export const FINDING_CODES = [
  'missing_idempotency_key',
  'duplicate_charge_risk',
  'duplicate_refund_risk',
  'repeated_invalid_request',
  'live_key_used',
  'card_data_in_checkout_mode',
  'ignored_retry_after',
  'polling_instead_of_webhooks',
  'webhook_signature_not_verified',
  'webhook_not_acknowledged',
  'webhook_slow_handler',
  'webhook_timeout',
  'webhook_duplicate_not_tolerated',
  'no_webhook_target',
  'webhook_unreachable',
  'ignored_webhook_field',
  'webhook_state_mismatch',
  'coverage_missing',
] as const;

/** A finding code of the go-live report. */
export type GoLiveFindingCode = (typeof FINDING_CODES)[number];

/** Every coverage scenario: what a merchant's tests should have been through once. */
export const COVERAGE_SCENARIOS = [
  'payment_succeeded',
  'payment_failed',
  'refund',
  'partial_refund',
  'customer_cancelled',
  'link_expired',
  'subscription_renewal',
  'subscription_past_due',
  'webhook_retry',
  'webhook_duplicate',
  'webhook_bad_signature',
  'webhook_out_of_order',
  'api_fault',
] as const;

/** A coverage scenario of the go-live report. */
export type CoverageScenario = (typeof COVERAGE_SCENARIOS)[number];

/** The documented set `recommended` names: what every integration's tests should go through before go-live. */
export const RECOMMENDED_COVERAGE: readonly CoverageScenario[] = [
  'payment_succeeded',
  'payment_failed',
  'refund',
  'webhook_retry',
  'webhook_duplicate',
  'webhook_bad_signature',
];

/** The name of the documented set in a list of required scenarios. */
export const RECOMMENDED = 'recommended';

/**
 * The scenarios a `--require-coverage` list names (`a,b`; `recommended` names the documented
 * set), without repeats, in the order named; or the message of a usage error naming the valid names.
 */
export function parseRequiredCoverage(list: string): { scenarios: CoverageScenario[] } | { error: string } {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return { error: `names no scenario: give ${RECOMMENDED} or scenario names separated by commas` };
  const unknown = names.filter((name) => name !== RECOMMENDED && !(COVERAGE_SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return {
      error: `unknown coverage scenario${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `"${n}"`).join(', ')}: valid names are ${RECOMMENDED}, ${COVERAGE_SCENARIOS.join(', ')}`,
    };
  }
  const scenarios = new Set<CoverageScenario>();
  for (const name of names) {
    if (name === RECOMMENDED) for (const s of RECOMMENDED_COVERAGE) scenarios.add(s);
    else scenarios.add(name as CoverageScenario);
  }
  return { scenarios: [...scenarios] };
}

/** How many ids of each kind a finding's evidence keeps (its count is always exact). */
export const EVIDENCE_IDS_MAX = 20;

interface Rule {
  severity: GoLiveSeverity;
  title: string;
  fix: string;
}

/** The docs entry of a code: the go-live page, anchored by the code itself. */
export const findingDocs = (code: GoLiveFindingCode): string => `docs/go-live.md#${code}`;

/** The fix of `no_webhook_target`, naming the field of each kind of resource that reached an outcome with no target. */
export function noWebhookTargetFix(resources: readonly ('transaction' | 'subscription')[]): string {
  const fields: string[] = [];
  if (resources.includes('transaction') || resources.length === 0) fields.push('notification_url on every transaction create');
  if (resources.includes('subscription')) fields.push('payment_method.webhooks_url on every subscription create');
  return `Send ${fields.join(' and ')} (or start the sandbox with --notification-url), so your app hears of every outcome.`;
}

export const RULES: Record<GoLiveFindingCode, Rule> = {
  missing_idempotency_key: {
    severity: 'warning',
    title: 'Creates sent without an Idempotency-Key',
    fix: 'Send an Idempotency-Key (e.g. your order id) on every create, and reuse the same key when you retry it.',
  },
  duplicate_charge_risk: {
    severity: 'error',
    title: 'The same payment was created twice',
    fix: 'Derive the Idempotency-Key from your order and reuse it on every retry of the same create, so a retry after a timeout replays the first answer instead of charging again.',
  },
  duplicate_refund_risk: {
    severity: 'error',
    title: 'The same refund was made twice',
    fix: "Derive the refund's Idempotency-Key from what you refund (the order and the amount, or your own refund id) and reuse it on every retry, so a retry after a timeout replays the first refund instead of refunding again.",
  },
  repeated_invalid_request: {
    severity: 'warning',
    title: 'The same invalid request was sent again and again',
    fix: 'Do not retry a 4xx unchanged: read the error envelope (code, details[].pointer), fix the request, and retry only 409 concurrent_request, 429 and 5xx.',
  },
  live_key_used: {
    severity: 'error',
    title: 'A production (sk_live_) key was sent to the sandbox',
    fix: 'Keep production keys out of test configuration: load the key from the environment and use an sk_test_ key everywhere but production.',
  },
  card_data_in_checkout_mode: {
    severity: 'error',
    title: 'Card data sent by a checkout-mode account',
    fix: 'In checkout mode never send number or security_code: redirect the customer to payment_url, where they enter the card.',
  },
  ignored_retry_after: {
    severity: 'warning',
    title: 'A 429 was retried before its Retry-After',
    fix: 'On 429, wait at least the Retry-After seconds (with jitter) before sending the request again.',
  },
  polling_instead_of_webhooks: {
    severity: 'info',
    title: 'A pending transaction was polled',
    fix: 'Wait for the payment webhook instead of reading the transaction in a loop; if you must poll, back off (e.g. 5 s, doubling).',
  },
  webhook_signature_not_verified: {
    severity: 'error',
    title: 'A webhook with a bad signature was acknowledged',
    fix: 'Verify the signature header over the raw body with the published public key before anything else, and answer 4xx (not the acknowledgement) when it does not match.',
  },
  webhook_not_acknowledged: {
    severity: 'warning',
    title: 'Webhooks answered without the acknowledgement',
    fix: 'Answer 2xx with the body {"code":"200","message":"SUCCESS"} once the webhook is stored; anything else is retried.',
  },
  webhook_slow_handler: {
    severity: 'warning',
    title: 'The webhook handler answered slowly',
    fix: 'Store the webhook and answer at once; do the slow work (emails, fulfilment) in a background job.',
  },
  webhook_timeout: {
    severity: 'error',
    title: 'The webhook handler did not answer in time',
    fix: 'Answer within the delivery timeout: acknowledge first, then process the webhook asynchronously.',
  },
  webhook_duplicate_not_tolerated: {
    severity: 'warning',
    title: 'A duplicate webhook was refused',
    fix: 'Make the handler idempotent: when the same webhook arrives again (same transaction and status), acknowledge it without acting twice.',
  },
  no_webhook_target: {
    severity: 'warning',
    title: 'A payment reached its outcome with nowhere to send its webhook',
    fix: noWebhookTargetFix(['transaction']),
  },
  webhook_unreachable: {
    severity: 'error',
    title: 'Webhooks could not reach their URL',
    fix: 'Point notification_url (or --notification-url) at an address the sandbox can reach: in CI and in containers, the service name or host of the app under test, not localhost of another container (see the recipes in docs/ci.md).',
  },
  ignored_webhook_field: {
    severity: 'warning',
    title: 'A webhook URL was sent in a field the resource ignores',
    fix: 'A subscription takes no top-level notification_url: send its webhook URL as payment_method.webhooks_url.',
  },
  webhook_state_mismatch: {
    severity: 'error',
    title: "The merchant's state contradicts the payment it acknowledged",
    fix: 'Apply each acknowledged outcome to the order before answering: a SUCCEEDED payment webhook makes the order paid, a FAILED one failed, and nothing else does (see the state check in docs/webhooks.md).',
  },
  coverage_missing: {
    severity: 'error',
    title: 'A required scenario was never exercised',
    fix: "Add a test that goes through the scenario (each finding's fix says how), or drop it from --require-coverage.",
  },
};

/** How to exercise each coverage scenario, and the docs section about it (`docs/<page>.md#<anchor>`). */
export const COVERAGE_HOW: Record<CoverageScenario, { how: string; docs: string }> = {
  payment_succeeded: {
    how: 'Create a payment and settle it (POST /_sandbox/transactions/{id}/settle, or a magic value such as card 4242424242424242).',
    docs: 'docs/control-api.md#steering-from-ci',
  },
  payment_failed: {
    how: 'Create a payment and fail it (POST /_sandbox/transactions/{id}/fail, or card 4000000000000002).',
    docs: 'docs/control-api.md#steering-from-ci',
  },
  refund: {
    how: 'Refund a succeeded payment (POST /v4/transactions/{id}/refunds).',
    docs: 'docs/control-api.md#steering-from-ci',
  },
  partial_refund: {
    how: 'Refund part of a succeeded payment (an amount below its remainder).',
    docs: 'docs/control-api.md#steering-from-ci',
  },
  customer_cancelled: {
    how: 'Open a payment_url and press Cancel (POST /pay/{id}/cancel).',
    docs: 'docs/payment-methods.md#the-payment-page',
  },
  link_expired: {
    how: 'Leave a payment_url unpaid and advance the clock 24 hours (POST /_sandbox/clock/advance {"seconds": 86400}).',
    docs: 'docs/payment-methods.md#the-payment-page',
  },
  subscription_renewal: {
    how: 'Create a subscription and advance the clock past its next billing date.',
    docs: 'docs/subscriptions.md#life-cycle',
  },
  subscription_past_due: {
    how: 'Create a subscription with plan.name "renewal-fails" and advance the clock past its first renewal.',
    docs: 'docs/subscriptions.md#life-cycle',
  },
  webhook_retry: {
    how: 'Have a webhook fail and then succeed: metadata {"sandbox_webhook_failures": "3"}, then advance the clock.',
    docs: 'docs/scenarios.md#magic-values-the-default-scenario',
  },
  webhook_duplicate: {
    how: 'Send a webhook twice: POST /_sandbox/transactions/{id}/webhook-faults {"fault": "duplicate"}.',
    docs: 'docs/faults.md#webhook-faults',
  },
  webhook_bad_signature: {
    how: 'Send a badly signed webhook: POST /_sandbox/transactions/{id}/webhook-faults {"fault": "bad_signature"}.',
    docs: 'docs/faults.md#webhook-faults',
  },
  webhook_out_of_order: {
    how: 'Send a refund webhook before its payment webhook: POST /_sandbox/transactions/{id}/webhook-faults {"fault": "out_of_order"}.',
    docs: 'docs/faults.md#webhook-faults',
  },
  api_fault: {
    how: 'Make the API fail on purpose: the X-Sandbox-Fault header (503, 429, timeout, reset) on a /v4 call.',
    docs: 'docs/faults.md#api-faults-the-x-sandbox-fault-header',
  },
};

const SEVERITY_ORDER: Record<GoLiveSeverity, number> = { error: 0, warning: 1, info: 2 };

/** What orders a finding in the report. */
interface FindingOrderKey {
  severity: GoLiveSeverity;
  code: GoLiveFindingCode;
  account_id: string | null;
}

/** Orders findings as the report lists them: errors, then warnings, then infos; by code within. */
export function compareFindings(a: FindingOrderKey, b: FindingOrderKey): number {
  return (
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    FINDING_CODES.indexOf(a.code) - FINDING_CODES.indexOf(b.code) ||
    (a.account_id ?? '').localeCompare(b.account_id ?? '')
  );
}

/** Whether `severity` is at or above `threshold` (error > warning > info). */
export function atOrAbove(severity: GoLiveSeverity, threshold: GoLiveSeverity): boolean {
  return SEVERITY_ORDER[severity] <= SEVERITY_ORDER[threshold];
}
