/**
 * The shape of a scenario file (sandbox contract: Scenarios): a named list of rules, each a
 * match on an incoming transaction or subscription and the steps that follow it. This module
 * owns the zod schema, the TypeScript types derived from it and the checks that span several
 * steps of a rule. Loading files and error messages live in `load.ts`, matching in `match.ts`.
 */
import { z } from 'zod';
import { DELIVERY_FAULTS, PLAN_INTERVALS } from '../domain/entities.js';

/** A terminal payment status a step can produce (spec: payment_data.payment_status). */
export const paymentOutcomeSchema = z.enum(['SUCCEEDED', 'FAILED']);

/** Billing intervals a `plan` match can name. */
export const planIntervalSchema = z.enum(PLAN_INTERVALS);

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
 * The syntax of an API fault, shared by the `X-Sandbox-Fault` header and the `api_fault` step:
 * `503`, `503-after`, `429`, `429=<s>`, `timeout`, `timeout=<n>s`, `timeout-after`,
 * `latency=<ms>`, `reset`, `reset-after` (http/faults.ts plays them).
 */
export const API_FAULT_PATTERN = /^(?:503(?:-after)?|429(?:=\d{1,3})?|timeout(?:=\d{1,3}s)?(?:-after)?|latency=\d{1,6}|reset(?:-after)?)$/;

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
    seconds: z.int().min(1).max(30 * 24 * 60 * 60).optional(),
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

/** `amount`: an exact amount in cents, or an inclusive range `{ "min"?, "max"? }`. */
export const amountMatchSchema = z.union(
  [
    z.int().min(0),
    z
      .strictObject({ min: z.int().min(0).optional(), max: z.int().min(0).optional() })
      .refine((range) => range.min !== undefined || range.max !== undefined, {
        error: 'give "min", "max" or both',
      })
      .refine((range) => range.min === undefined || range.max === undefined || range.min <= range.max, {
        error: '"min" must not be greater than "max"',
        path: ['min'],
      }),
  ],
  { error: 'expected an integer amount in cents or a range { "min"?, "max"? }' },
);

/**
 * The conditions of a rule. Every condition present must hold; an empty match matches
 * everything. See `match.ts` for how each one compares.
 */
export const scenarioMatchSchema = z.strictObject({
  /** Only transactions or only subscriptions; both when absent. */
  applies_to: z.enum(['transaction', 'subscription']).optional(),
  amount: amountMatchSchema.optional(),
  /** ISO 4217 code, compared case-insensitively. */
  currency: z.string().regex(/^[A-Za-z]{3}$/, { error: 'expected a three-letter ISO 4217 code' }).optional(),
  /** The full card number, digits only. */
  card_number: z.string().regex(/^[0-9]{8,19}$/, { error: 'expected the card number as 8 to 19 digits' }).optional(),
  /** An exact address or a pattern with `*` wildcards, compared case-insensitively. */
  customer_email: z.string().min(1).optional(),
  /** Each key must be present in the request's metadata with exactly this value. */
  metadata: z.record(z.string(), z.string()).optional(),
  /** Compared case-insensitively. */
  payment_channel_code: z.string().min(1).optional(),
  plan: z
    .strictObject({ name: z.string().min(1).optional(), interval: planIntervalSchema.optional() })
    .optional(),
});

/** A named rule: when `match` holds, the sandbox runs `steps` on the sandbox clock. */
export const scenarioRuleSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    match: scenarioMatchSchema,
    steps: z.array(scenarioStepSchema),
  })
  .superRefine((rule, ctx) => {
    const outcomes = rule.steps.flatMap((step, i) => ('outcome' in step ? [{ step, i }] : []));
    const first = outcomes[0];
    for (const extra of outcomes.slice(1)) {
      ctx.addIssue({
        code: 'custom',
        path: ['steps', extra.i, 'outcome'],
        message: `a rule has at most one "outcome" step (the first is steps[${first?.i}])`,
      });
    }
    const renewals: number[] = [];
    const webhookFailures: number[] = [];
    const webhookFaults = new Map<string, number>();
    const apiFaults: number[] = [];
    rule.steps.forEach((step, i) => {
      if ('api_fault' in step) {
        if (apiFaults.length > 0) {
          ctx.addIssue({ code: 'custom', path: ['steps', i, 'api_fault'], message: `a rule has at most one "api_fault" step (the first is steps[${apiFaults[0]}])` });
        }
        apiFaults.push(i);
      }
      if ('webhook_fault' in step) {
        const earlier = webhookFaults.get(step.webhook_fault);
        if (earlier !== undefined) {
          ctx.addIssue({ code: 'custom', path: ['steps', i, 'webhook_fault'], message: `a rule has at most one "${step.webhook_fault}" webhook_fault (the first is steps[${earlier}])` });
        } else webhookFaults.set(step.webhook_fault, i);
        if (step.webhook_fault === 'out_of_order' && !rule.steps.some((other) => 'refund' in other)) {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'webhook_fault'],
            message: 'an "out_of_order" webhook_fault needs a "refund" step in the same rule (its webhook goes before the payment\'s)',
          });
        }
      }
      if ('refund' in step) {
        if (!first) {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'refund'],
            message: 'a "refund" step needs an { "outcome": "SUCCEEDED" } step in the same rule',
          });
        } else if (first.step.outcome !== 'SUCCEEDED') {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'refund'],
            message: `a "refund" step needs the rule's outcome to be "SUCCEEDED", not "${first.step.outcome}"`,
          });
        }
      }
      if ('renewal_fails' in step || 'renewal_outcomes' in step) {
        const key = 'renewal_fails' in step ? 'renewal_fails' : 'renewal_outcomes';
        if (rule.match.applies_to === 'transaction') {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, key],
            message: `"${key}" is for subscriptions, but match.applies_to is "transaction"`,
          });
        }
        if (renewals.length > 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, key],
            message: `a rule has at most one "renewal_fails" or "renewal_outcomes" step (the first is steps[${renewals[0]}])`,
          });
        }
        renewals.push(i);
      }
      if ('webhook_failures' in step) {
        if (webhookFailures.length > 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'webhook_failures'],
            message: `a rule has at most one "webhook_failures" step (the first is steps[${webhookFailures[0]}])`,
          });
        }
        webhookFailures.push(i);
      }
    });
  });

/** A whole scenario file: `{ "name", "description"?, "rules": [...] }`. Rule names are unique. */
export const scenarioFileSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    rules: z.array(scenarioRuleSchema),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.rules.forEach((rule, i) => {
      const earlier = seen.get(rule.name);
      if (earlier !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['rules', i, 'name'],
          message: `duplicate rule name (also rules[${earlier}])`,
        });
      } else {
        seen.set(rule.name, i);
      }
    });
  });

/** A scenario file after parsing (defaults applied). */
export type ScenarioFile = z.output<typeof scenarioFileSchema>;
/** A scenario file as written, before defaults. */
export type ScenarioFileInput = z.input<typeof scenarioFileSchema>;
/** One rule of a scenario file. */
export type ScenarioRule = z.output<typeof scenarioRuleSchema>;
/** The conditions of a rule. */
export type ScenarioMatch = z.output<typeof scenarioMatchSchema>;
/** The `amount` condition: exact, or an inclusive range. */
export type AmountMatch = z.output<typeof amountMatchSchema>;
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
