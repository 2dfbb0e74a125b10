/**
 * The go-live report document's shape, written once: the zod schemas `GET /_sandbox/report`
 * answers with and documents, and the types of the report, its findings and coverage, inferred
 * from them.
 */
import { z } from '@hono/zod-openapi';
import { COVERAGE_SCENARIOS, FINDING_CODES, SEVERITIES } from './go-live.js';

/** What shows a finding: how many times it happened, and the first ids of what showed it. */
export const goLiveEvidenceSchema = z.object({
  count: z.number().int().openapi({ description: 'How many times it happened (exact).' }),
  request_ids: z
    .array(z.number().int())
    .optional()
    .openapi({ description: 'The first request-log ids that show it (GET /_sandbox/requests).' }),
  delivery_ids: z
    .array(z.string())
    .optional()
    .openapi({ description: 'The first webhook delivery ids that show it (GET /_sandbox/deliveries).' }),
  transaction_ids: z.array(z.string()).optional().openapi({ description: 'The first transaction ids it concerns.' }),
});

export const severitySchema = z.enum(SEVERITIES);

export const goLiveFindingSchema = z
  .object({
    code: z.enum(FINDING_CODES),
    severity: severitySchema,
    account_id: z
      .string()
      .nullable()
      .openapi({ description: 'The account; null for a request that named no known account (in every report, whatever its account_id).' }),
    title: z.string(),
    detail: z.string(),
    evidence: goLiveEvidenceSchema,
    fix: z.string().openapi({ description: "What to change in the merchant's code." }),
    docs: z.string().openapi({ description: 'Sandbox extension: the docs entry of the code (docs/go-live.md#<code>).' }),
    scenario: z
      .enum(COVERAGE_SCENARIOS)
      .optional()
      .openapi({ description: 'Sandbox extension, for coverage_missing: the required scenario not seen.' }),
  })
  .openapi('GoLiveFinding');

export const coverageEntrySchema = z
  .object({
    scenario: z.enum(COVERAGE_SCENARIOS),
    account_id: z.string(),
    seen: z.boolean(),
    how: z.string(),
    docs: z.string().openapi({ description: 'Sandbox extension: the README section on how to exercise it.' }),
  })
  .openapi('CoverageEntry');

export const goLiveReportSchema = z
  .object({
    generated_at: z.string(),
    summary: z.object({ errors: z.number().int(), warnings: z.number().int(), infos: z.number().int() }),
    findings: z.array(goLiveFindingSchema),
    coverage: z.array(coverageEntrySchema),
  })
  .openapi('GoLiveReport');

export type GoLiveEvidence = z.infer<typeof goLiveEvidenceSchema>;
export type GoLiveFinding = z.infer<typeof goLiveFindingSchema>;
export type CoverageEntry = z.infer<typeof coverageEntrySchema>;
/** `GET /_sandbox/report`. */
export type GoLiveReport = z.infer<typeof goLiveReportSchema>;
