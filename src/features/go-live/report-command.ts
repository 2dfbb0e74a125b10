/**
 * `payment-sandbox report [--sandbox-url URL] [--account ID] [--fail-on error|warning|never]
 * [--format text|json|junit] [--require-coverage SCENARIO[,SCENARIO...]]`: fetches `GET /_sandbox/report` from a running sandbox (a
 * container, a CI service, another terminal) and prints it for a CI log. Exit code: 0 when
 * no finding is at or above `--fail-on` (default error), 1 when one is, 2 for bad options,
 * an unreachable sandbox or a refused request. `--url` is a deprecated, hidden alias of
 * `--sandbox-url`: it still works, with a one-line notice on stderr.
 */
import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import {
  controlHeaders,
  DEFAULT_SANDBOX_URL as DEFAULT_URL,
  defaultOrigin,
  sandboxOrigin,
  unreachableMessage,
} from '../../core/sandbox-client.js';
import { RECOMMENDED, parseRequiredCoverage } from './go-live.js';
import type { GoLiveReport } from './report.schemas.js';
import { failingFindings, formatJunit, formatText, type FailOn } from './report-format.js';

/** Exit codes of `report`. */
export const REPORT_EXIT = { passed: 0, failed: 1, usage: 2 } as const;

/** The sandbox's origin when `--sandbox-url` is not given (kept here for the report's callers). */
export { defaultOrigin };

/** The option every command names the sandbox's address with. */
const SANDBOX_FLAG = '--sandbox-url';

interface ReportFlags {
  sandboxUrl?: string;
  /** The deprecated alias of `--sandbox-url`. */
  url?: string;
  account?: string;
  failOn: string;
  format: string;
  adminToken?: string;
  requireCoverage?: string;
}

function buildCommand(): Command {
  return new Command('payment-sandbox report')
    .description(
      'Prints the go-live report of a running sandbox: what in the integration would hurt in production, and which scenarios its tests went through.',
    )
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride()
    .addOption(
      new Option(`${SANDBOX_FLAG} <origin>`, `the running sandbox's origin [env PAYMENT_SANDBOX_URL]`).default(
        undefined,
        `${DEFAULT_URL}, or the port of PAYMENT_SANDBOX_PORT`,
      ),
    )
    .addOption(new Option('--url <url>', `deprecated: ${SANDBOX_FLAG}`).hideHelp())
    .addOption(new Option('--account <id>', 'only this merchant account (default: every account with traffic)'))
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a finding is at or above it').choices(['error', 'warning', 'never']).default('error'),
    )
    .addOption(
      new Option('--format <format>', "text for a CI log, json (the endpoint's document) or junit (JUnit XML)")
        .choices(['text', 'json', 'junit'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--require-coverage <scenarios>',
        `coverage scenarios (comma-separated) the tests must have gone through; each one not seen is a coverage_missing error (${RECOMMENDED}: the documented set)`,
      ),
    )
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one [env PAYMENT_SANDBOX_ADMIN_TOKEN]"))
    .addHelpText(
      'after',
      '\nIn CI, as the last step:\n  $ payment-sandbox report --require-coverage recommended --format junit > go-live.xml\n',
    );
}

/**
 * Runs `report` with the arguments after the subcommand name; resolves with the exit code
 * (see `REPORT_EXIT`). Writes the report to stdout, problems to stderr.
 */
export async function runReport(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const program = buildCommand();
  let flags: ReportFlags;
  try {
    program.parse(argv, { from: 'user' });
    flags = program.opts<ReportFlags>();
  } catch (err) {
    const e = err as { code?: string };
    if (e.code === 'commander.helpDisplayed') return REPORT_EXIT.passed;
    return REPORT_EXIT.usage; // commander printed its one line
  }
  const fail = (message: string): number => {
    process.stderr.write(`payment-sandbox report: ${message}\n`);
    return REPORT_EXIT.usage;
  };
  const query = new URLSearchParams();
  if (flags.account !== undefined) query.set('account_id', flags.account);
  if (flags.requireCoverage !== undefined) {
    const required = parseRequiredCoverage(flags.requireCoverage);
    if ('error' in required) return fail(`--require-coverage ${required.error}`);
    query.set('require_coverage', required.scenarios.join(','));
  }
  if (flags.url !== undefined) {
    if (flags.sandboxUrl !== undefined) return fail(`give the sandbox's address once: ${SANDBOX_FLAG} (--url is its deprecated name)`);
    process.stderr.write(`payment-sandbox report: --url is deprecated and will be removed; use ${SANDBOX_FLAG}\n`);
  }
  const flagName = flags.url === undefined ? SANDBOX_FLAG : '--url';
  const resolved = sandboxOrigin(flags.sandboxUrl ?? flags.url, env, flagName);
  if ('error' in resolved) return fail(resolved.error);
  const { origin } = resolved;
  const url = `${origin}/_sandbox/report${query.size === 0 ? '' : `?${query.toString().replace(/%2C/g, ',')}`}`;
  const token = flags.adminToken ?? env.PAYMENT_SANDBOX_ADMIN_TOKEN;
  let report: GoLiveReport;
  try {
    const res = await fetch(url, {
      headers: controlHeaders(token),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) {
      let message = text.slice(0, 300);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // not the error envelope: the raw text
      }
      return fail(`GET ${url} answered ${res.status}: ${message}`);
    }
    report = JSON.parse(text) as GoLiveReport;
  } catch (err) {
    return fail(unreachableMessage(origin, err, flagName));
  }
  const failOn = flags.failOn as FailOn;
  const source = flags.account === undefined ? origin : `${origin} (account ${flags.account})`;
  const out =
    flags.format === 'json'
      ? JSON.stringify(report, null, 2)
      : flags.format === 'junit'
        ? formatJunit(report, source, hostname() || 'payment-sandbox')
        : formatText(report, source, failOn);
  process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  return failingFindings(report, failOn).length > 0 ? REPORT_EXIT.failed : REPORT_EXIT.passed;
}
