/**
 * The steps of a scenario rule: the zod schema of each step
 * variant, the union of them, their TypeScript types and `stepKind`. The checks that span
 * several steps of a rule live with the rule in `schema.ts`, which re-exports this module.
 */
import { z } from 'zod';
import { DELIVERY_FAULTS } from '../../core/domain/entities.js';
import { API_FAULT_PATTERN } from '../../core/http/faults.js';

/** A terminal payment status a step can produce (spec: payment_data.payment_status). */
export const paymentOutcomeSchema = z.enum(['SUCCEEDED', 'FAILED']);

/**
 * The key that tells each step variant apart, in the order of the variants of
 * `scenarioStepSchema` (error messages rely on this order).
 */
export const STEP_KINDS = [
  'outcome',
  'refund',
  'renewal_fails',
  'renewal_outcomes',
  'webhook_failures',
  'api_fault',
  'webhook_fault',
] as const;

/** The name of a step variant: the key it is recognised by. */
export type ScenarioStepKind = (typeof STEP_KINDS)[number];

const afterSeconds = z.number().min(0).default(0);

/**
 * `{ "outcome": "SUCCEEDED" | "FAILED", "after_seconds"?: n }`: the payment's terminal status,
 * `after_seconds` (sandbox clock, default 0) after the transaction or subscription is created.
 * For a subscription it is the outcome of the first charge.
 */
export const outcomeStepSchema = z.strictObject({
  outcome: paymentOutcomeSchema,
  after_seconds: afterSeconds,
});

/**
 * `{ "refund": { "amount"?, "reason"? }, "after_seconds"?: n }`: a refund as if the merchant
 * asked for it, `after_seconds` (default 0) after the rule's SUCCEEDED outcome. Without
 * `amount` it refunds whatever is left. Allowed only in a rule with `outcome: SUCCEEDED`.
 */
export const refundStepSchema = z.strictObject({
  refund: z.strictObject({
    amount: z.int().min(1).optional(),
    reason: z.string().min(1).max(255).optional(),
  }),
  after_seconds: afterSeconds,
});

/**
 * `{ "renewal_fails": [n, ...] }`: every charge attempt of the renewals with these 1-based
 * numbers fails, so the subscription goes `past_due`, then `cancelled` after
 * `plan.payment_attempts` attempts. Other renewals succeed.
 */
export const renewalFailsStepSchema = z.strictObject({
  renewal_fails: z.array(z.int().min(1)).min(1),
});

/**
 * `{ "renewal_outcomes": ["FAILED", "SUCCEEDED", ...] }`: the outcomes of successive renewal
 * charge attempts (retries included), in order; once the list is used up renewals succeed.
 */
export const renewalOutcomesStepSchema = z.strictObject({
  renewal_outcomes: z.array(paymentOutcomeSchema).min(1),
});

/**
 * `{ "webhook_failures": n, "status"?: 400..599 }`: the first `n` delivery attempts of each
 * webhook about this resource are recorded as failed with `status` (default 503) by the
 * sandbox itself, without contacting the merchant; later attempts are delivered normally.
 */
export const webhookFailuresStepSchema = z.strictObject({
  webhook_failures: z.int().min(1),
  status: z.int().min(400).max(599).default(503),
});

/**
 * `{ "api_fault": "503" }`: the create call (POST /v4/transactions or /v4/subscriptions) that
 * the rule matches fails that way, as if `X-Sandbox-Fault` had been sent (see README).
 */
export const apiFaultStepSchema = z.strictObject({
  api_fault: z.string().regex(API_FAULT_PATTERN, {
    error: 'expected 503, 503-after, 429, 429=<s>, timeout, timeout=<n>s, timeout-after, latency=<ms>, reset or reset-after',
  }),
});

/** The webhook faults a rule, the control API or the panel can script. */
export const webhookFaultKindSchema = z.enum(DELIVERY_FAULTS);

/**
 * `{ "webhook_fault": "duplicate" | "out_of_order" | "delayed" | "bad_signature", "seconds"?: n }`:
 * each webhook about the transaction is delivered twice (`duplicate`), first attempted
 * `seconds` later on the sandbox clock (`delayed`), or preceded by a copy with a signature that
 * does not match its body (`bad_signature`, attempted once); `out_of_order` sends the refund's
 * webhook before the payment's (the rule needs a `refund` step).
 */
export const webhookFaultStepSchema = z
  .strictObject({
    webhook_fault: webhookFaultKindSchema,
    seconds: z
      .int()
      .min(1)
      .max(30 * 24 * 60 * 60)
      .optional(),
  })
  .refine((step) => step.webhook_fault !== 'delayed' || step.seconds !== undefined, {
    error: 'a "delayed" webhook_fault needs "seconds"',
    path: ['seconds'],
  });

/** One step of a rule; the variant is recognised by its key (see `STEP_KINDS`). */
export const scenarioStepSchema = z.union(
  [
    outcomeStepSchema,
    refundStepSchema,
    renewalFailsStepSchema,
    renewalOutcomesStepSchema,
    webhookFailuresStepSchema,
    apiFaultStepSchema,
    webhookFaultStepSchema,
  ],
  {
    error: `expected a step with one of the keys ${STEP_KINDS.slice(0, -1)
      .map((k) => `"${k}"`)
      .join(', ')} or "${STEP_KINDS[STEP_KINDS.length - 1]}"`,
  },
);

/** One step of a rule (narrow with `'outcome' in step` etc., or `stepKind`). */
export type ScenarioStep = z.output<typeof scenarioStepSchema>;
/** `SUCCEEDED` or `FAILED`. */
export type PaymentOutcome = z.output<typeof paymentOutcomeSchema>;
/** Step: the payment's outcome. */
export type OutcomeStep = z.output<typeof outcomeStepSchema>;
/** Step: a refund after the SUCCEEDED outcome. */
export type RefundStep = z.output<typeof refundStepSchema>;
/** Step: renewals with these numbers fail. */
export type RenewalFailsStep = z.output<typeof renewalFailsStepSchema>;
/** Step: outcomes of successive renewal attempts. */
export type RenewalOutcomesStep = z.output<typeof renewalOutcomesStepSchema>;
/** Step: the first deliveries of each webhook fail. */
export type WebhookFailuresStep = z.output<typeof webhookFailuresStepSchema>;

/** Step: an API fault on the matched create call. */
export type ApiFaultStep = z.output<typeof apiFaultStepSchema>;
/** Step: a webhook fault on the transaction's webhooks. */
export type WebhookFaultStep = z.output<typeof webhookFaultStepSchema>;
/** `duplicate`, `out_of_order`, `delayed` or `bad_signature`. */
export type WebhookFaultKind = z.output<typeof webhookFaultKindSchema>;

/** The variant of a step, i.e. the one key of `STEP_KINDS` it carries. */
export function stepKind(step: ScenarioStep): ScenarioStepKind {
  if ('api_fault' in step) return 'api_fault';
  if ('webhook_fault' in step) return 'webhook_fault';
  if ('outcome' in step) return 'outcome';
  if ('refund' in step) return 'refund';
  if ('renewal_fails' in step) return 'renewal_fails';
  if ('renewal_outcomes' in step) return 'renewal_outcomes';
  return 'webhook_failures';
}
