/**
 * The conformance report: the outcome of each named check against one server (and, with
 * `compare`, against a second one) and the differences between the two servers' answers.
 */
import { z } from 'zod';

/** One request the kit sent and the answer it got (the answer as `{status, headers, body}`). */
export const exchangeSchema = z.object({
  request: z.object({ method: z.string(), path: z.string(), body: z.unknown().optional() }),
  response: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.unknown() }),
});
export type Exchange = z.infer<typeof exchangeSchema>;

/** Why a check failed: the exchange, and the JSON pointer into its answer that differs from the rule. */
export const checkFailureSchema = z.object({
  message: z.string(),
  /** JSON pointer into the answer document `{status, headers, body}`, e.g. `/body/details/0/pointer`. */
  pointer: z.string(),
  expected: z.string(),
  actual: z.unknown(),
  exchange: exchangeSchema.nullable(),
});
export type CheckFailure = z.infer<typeof checkFailureSchema>;

export const checkOutcomeSchema = z.object({
  /** `skipped`: the check needs credentials that were not given (`skip_reason` says which); it neither passes nor fails the run. */
  outcome: z.enum(['passed', 'failed', 'skipped']),
  duration_ms: z.number(),
  failure: checkFailureSchema.nullable(),
  skip_reason: z.string().nullable(),
});
export type CheckOutcome = z.infer<typeof checkOutcomeSchema>;

export const checkResultSchema = z.object({
  name: z.string(),
  rule: z.string(),
  /** Against `url`. */
  result: checkOutcomeSchema,
  /** Against `compare_url`, when comparing. */
  compare_result: checkOutcomeSchema.nullable(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

/** A place where the two servers' answers to the same check differ (after normalising ids, timestamps, cursors, URLs). */
export const differenceSchema = z.object({
  check: z.string(),
  /** The request of the check, e.g. `GET /transactions?limit=2`. */
  request: z.string(),
  /** JSON pointer into the answer document `{status, headers, body}`. */
  pointer: z.string(),
  url_value: z.unknown(),
  compare_value: z.unknown(),
});
export type Difference = z.infer<typeof differenceSchema>;

export const conformanceReportSchema = z.object({
  url: z.string(),
  compare_url: z.string().nullable(),
  generated_at: z.string(),
  summary: z.object({
    checks: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    /** Checks skipped (on either server) for want of credentials and not failed on the other. */
    skipped: z.number().int(),
    differences: z.number().int(),
  }),
  checks: z.array(checkResultSchema),
  differences: z.array(differenceSchema),
});
export type ConformanceReport = z.infer<typeof conformanceReportSchema>;

/**
 * One server's address and credentials: a direct-mode account (`apiKey`, `accountId`), and
 * optionally a checkout-mode account of the same server (`checkout`) and a restricted key of
 * the direct account that may read transactions but not write them (`restrictedApiKey`, e.g.
 * scopes `transactions.read`). The checks that need what is not given are skipped.
 */
export const conformanceTargetSchema = z.object({
  url: z.string().url(),
  apiKey: z.string().min(1),
  accountId: z.string().min(1),
  checkout: z.object({ apiKey: z.string().min(1), accountId: z.string().min(1) }).optional(),
  restrictedApiKey: z.string().min(1).optional(),
});
export type ConformanceTarget = z.infer<typeof conformanceTargetSchema>;

export const conformanceOptionsSchema = conformanceTargetSchema.extend({ compare: conformanceTargetSchema.optional() });
/** The options of `runConformance`. */
export type ConformanceOptions = z.infer<typeof conformanceOptionsSchema>;
