/**
 * The shape of a scenario file: a named list of rules, each a
 * match on an incoming transaction or subscription and the steps that follow it. This module
 * owns the zod schema, the TypeScript types derived from it and the checks that span several
 * steps of a rule; the steps themselves are in `step-schema.ts` (re-exported here, so this
 * file stays the one entry point of the format). Loading files and error messages live in
 * `load.ts`, matching in `match.ts`.
 */
import { z } from 'zod';
import { PLAN_INTERVALS } from './vocabulary.js';
import { scenarioStepSchema } from './step-schema.js';

/** Billing intervals a `plan` match can name. */
export const planIntervalSchema = z.enum(PLAN_INTERVALS);

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
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, { error: 'expected a three-letter ISO 4217 code' })
    .optional(),
  /** The full card number, digits only. */
  card_number: z
    .string()
    .regex(/^[0-9]{8,19}$/, { error: 'expected the card number as 8 to 19 digits' })
    .optional(),
  /** An exact address or a pattern with `*` wildcards, compared case-insensitively. */
  customer_email: z.string().min(1).optional(),
  /** Each key must be present in the request's metadata with exactly this value. */
  metadata: z.record(z.string(), z.string()).optional(),
  /** Compared case-insensitively. */
  payment_channel_code: z.string().min(1).optional(),
  plan: z.strictObject({ name: z.string().min(1).optional(), interval: planIntervalSchema.optional() }).optional(),
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
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'api_fault'],
            message: `a rule has at most one "api_fault" step (the first is steps[${apiFaults[0]}])`,
          });
        }
        apiFaults.push(i);
      }
      if ('webhook_fault' in step) {
        const earlier = webhookFaults.get(step.webhook_fault);
        if (earlier !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'webhook_fault'],
            message: `a rule has at most one "${step.webhook_fault}" webhook_fault (the first is steps[${earlier}])`,
          });
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
