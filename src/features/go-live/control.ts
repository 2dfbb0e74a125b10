/**
 * The control route of the go-live report, its definition, schemas and handler:
 * `GET /_sandbox/report`, the findings and coverage the sandbox has gathered from the
 * merchant's traffic, for one account or all.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  COVERAGE_SCENARIOS,
  FINDING_CODES,
  RECOMMENDED,
  RECOMMENDED_COVERAGE,
  parseRequiredCoverage,
  type CoverageScenario,
} from './go-live.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import { errorSchema } from '../../core/http/schemas.js';
import type { GoLiveTracker } from './go-live-tracker.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import { accountOr404, type ControlHandler } from '../../core/http/control-route-parts.js';
import type { AppEnv } from '../../core/http/env.js';
import { createRouter } from '../../core/http/router.js';

const severitySchema = z.enum(['error', 'warning', 'info']);

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
    evidence: z.object({
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
    }),
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

/** The report as the panel reads it. */
export type GoLiveReportView = z.infer<typeof goLiveReportSchema>;

/** `require_coverage`: scenario names separated by commas (`recommended`: the documented set); an unknown name is a 400 at its pointer. */
export const requireCoverageSchema = z
  .string()
  .transform((list, ctx): CoverageScenario[] => {
    const parsed = parseRequiredCoverage(list);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: `require_coverage ${parsed.error}` });
      return z.NEVER;
    }
    return parsed.scenarios;
  })
  .optional()
  .openapi({
    type: 'string',
    description: `Sandbox extension: coverage scenarios separated by commas (${RECOMMENDED}: ${RECOMMENDED_COVERAGE.join(', ')}); each one the report's accounts have not seen is a coverage_missing finding (error).`,
    example: RECOMMENDED,
  });

/** The query of `GET /_sandbox/report`: one account (default: every account with traffic) and the coverage required. */
export const reportQuerySchema = z.object({ account_id: z.string().optional(), require_coverage: requireCoverageSchema });

export const get = createRoute({
  method: 'get',
  path: '/report',
  ...controlOperation,
  operationId: 'getGoLiveReport',
  summary: 'The go-live report: what in the integration would hurt in production, and which scenarios its tests went through',
  description:
    'Findings (errors first) with their evidence (exact count, the first ids of the requests, deliveries and transactions that show it), a fix and the docs entry; coverage per account. Without account_id: every account with findings or coverage. With require_coverage, each listed scenario not seen is a coverage_missing finding. Cleared by POST /_sandbox/reset.',
  request: { query: reportQuerySchema },
  responses: {
    200: { description: 'The report', content: { 'application/json': { schema: goLiveReportSchema } } },
    400: { description: 'Bad request', content: { 'application/json': { schema: errorSchema } } },
    404: { description: 'Unknown account', content: { 'application/json': { schema: errorSchema } } },
  },
});

export type GetRoute = typeof get;

/** What the report route uses. */
export interface ReportControlDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  goLive: Pick<GoLiveTracker, 'report'>;
}

export function reportHandlers({ accounts, goLive }: ReportControlDeps) {
  const get: ControlHandler<GetRoute> = (c) => {
    const { account_id: accountId, require_coverage: required } = c.req.valid('query');
    accountOr404(accounts, accountId);
    return c.json(goLive.report(accountId, required), 200);
  };
  return { get };
}

export function reportControlRoutes(deps: ReportControlDeps): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(get, reportHandlers(deps).get);
}
