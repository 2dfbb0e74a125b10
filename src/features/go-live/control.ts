/**
 * The control route of the go-live report, its definition, query schema and handler:
 * `GET /_sandbox/report`, the findings and coverage the sandbox has gathered from the
 * merchant's traffic, for one account or all.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { RECOMMENDED, RECOMMENDED_COVERAGE, parseRequiredCoverage, type CoverageScenario } from './go-live.js';
import { goLiveReportSchema } from './report.schemas.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import { errorSchema } from '../../core/http/schemas.js';
import type { GoLiveTracker } from './go-live-tracker.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import { accountOr404, type ControlHandler } from '../../core/http/control-route-parts.js';
import type { AppEnv } from '../../core/http/env.js';
import { createRouter } from '../../core/http/router.js';

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
