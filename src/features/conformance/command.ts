/**
 * `payment-sandbox conformance --url <base ending in /v4> --api-key KEY --account-id ID
 * [--checkout-api-key KEY --checkout-account-id ID] [--restricted-api-key KEY]
 * [--compare-url URL2 --compare-api-key KEY2 --compare-account-id ID2 (and the same
 * --compare-checkout-… and --compare-restricted-api-key)] [--format text|json|junit]`:
 * runs the behaviour checks against any server through `/v4` and prints the report. Exit code:
 * 0 when every check passes (and the servers do not differ), 1 when one fails or they differ,
 * 2 for bad options, a server that cannot be reached, or a key it refuses (401 on its first call).
 */
import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import { ConformanceConnectionError } from './client.js';
import { ConformanceCredentialsError } from './credentials.js';
import { formatConformanceJunit, formatConformanceText } from './format.js';
import { conformancePassed, runConformance } from './run.js';
import type { ConformanceOptions } from './report.js';

/** Exit codes of `conformance`. */
export const CONFORMANCE_EXIT = { passed: 0, failed: 1, usage: 2 } as const;

interface Flags {
  url?: string;
  apiKey?: string;
  accountId?: string;
  checkoutApiKey?: string;
  checkoutAccountId?: string;
  restrictedApiKey?: string;
  compareUrl?: string;
  compareApiKey?: string;
  compareAccountId?: string;
  compareCheckoutApiKey?: string;
  compareCheckoutAccountId?: string;
  compareRestrictedApiKey?: string;
  format: string;
}

function buildCommand(): Command {
  return new Command('payment-sandbox conformance')
    .description("Runs the sandbox's behaviour checks against any server of the API (through /v4 only), or compares two servers.")
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride()
    .addOption(new Option('--url <url>', 'base URL of the server, ending in /v4'))
    .addOption(new Option('--api-key <key>', 'its sk_test_ API key'))
    .addOption(new Option('--account-id <id>', 'its direct-mode merchant account id (X-MERCHANT-ACCOUNT-ID)'))
    .addOption(new Option('--checkout-api-key <key>', 'the API key of a checkout-mode account of the same server'))
    .addOption(new Option('--checkout-account-id <id>', 'that checkout-mode account id'))
    .addOption(new Option('--restricted-api-key <key>', 'a key of the direct account that may read transactions but not write them'))
    .addOption(new Option('--compare-url <url>', 'a second server to compare with, ending in /v4'))
    .addOption(new Option('--compare-api-key <key>', "the second server's API key"))
    .addOption(new Option('--compare-account-id <id>', "the second server's merchant account id"))
    .addOption(new Option('--compare-checkout-api-key <key>', "the second server's checkout-mode API key"))
    .addOption(new Option('--compare-checkout-account-id <id>', "the second server's checkout-mode account id"))
    .addOption(new Option('--compare-restricted-api-key <key>', "the second server's read-only restricted key"))
    .addOption(new Option('--format <format>', 'text, json or junit').choices(['text', 'json', 'junit']).default('text'));
}

const isV4Base = (url: string): boolean =>
  URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) && /\/v4\/?$/.test(new URL(url).pathname);

/** The checkout-mode account of a key and an id: both or neither. */
function checkoutOf(apiKey: string | undefined, accountId: string | undefined): { apiKey: string; accountId: string } | null | 'partial' {
  if (apiKey === undefined && accountId === undefined) return null;
  if (!apiKey || !accountId) return 'partial';
  return { apiKey, accountId };
}

/** Runs `conformance` with the arguments after the subcommand name; resolves with the exit code. */
export async function runConformanceCommand(argv: string[]): Promise<number> {
  const program = buildCommand();
  let flags: Flags;
  try {
    program.parse(argv, { from: 'user' });
    flags = program.opts<Flags>();
  } catch (err) {
    const e = err as { code?: string };
    if (e.code === 'commander.helpDisplayed') return CONFORMANCE_EXIT.passed;
    return CONFORMANCE_EXIT.usage;
  }
  const usage = (message: string): number => {
    process.stderr.write(`payment-sandbox conformance: ${message}\n`);
    return CONFORMANCE_EXIT.usage;
  };
  if (!flags.url || !flags.apiKey || !flags.accountId) return usage('--url, --api-key and --account-id are required');
  if (!isV4Base(flags.url)) return usage(`invalid --url "${flags.url}": must be an http(s) base URL ending in /v4`);
  const checkout = checkoutOf(flags.checkoutApiKey, flags.checkoutAccountId);
  if (checkout === 'partial') return usage('--checkout-api-key and --checkout-account-id go together');
  const options: ConformanceOptions = {
    url: flags.url,
    apiKey: flags.apiKey,
    accountId: flags.accountId,
    ...(checkout ? { checkout } : {}),
    ...(flags.restrictedApiKey ? { restrictedApiKey: flags.restrictedApiKey } : {}),
  };
  const compareOnly = [flags.compareCheckoutApiKey, flags.compareCheckoutAccountId, flags.compareRestrictedApiKey];
  const compareGiven = [flags.compareUrl, flags.compareApiKey, flags.compareAccountId].filter((v) => v !== undefined).length;
  if (compareGiven === 0 && compareOnly.some((v) => v !== undefined))
    return usage('--compare-checkout-api-key, --compare-checkout-account-id and --compare-restricted-api-key need --compare-url');
  if (compareGiven > 0) {
    if (!flags.compareUrl || !flags.compareApiKey || !flags.compareAccountId)
      return usage('--compare-url, --compare-api-key and --compare-account-id go together');
    if (!isV4Base(flags.compareUrl)) return usage(`invalid --compare-url "${flags.compareUrl}": must be an http(s) base URL ending in /v4`);
    const compareCheckout = checkoutOf(flags.compareCheckoutApiKey, flags.compareCheckoutAccountId);
    if (compareCheckout === 'partial') return usage('--compare-checkout-api-key and --compare-checkout-account-id go together');
    options.compare = {
      url: flags.compareUrl,
      apiKey: flags.compareApiKey,
      accountId: flags.compareAccountId,
      ...(compareCheckout ? { checkout: compareCheckout } : {}),
      ...(flags.compareRestrictedApiKey ? { restrictedApiKey: flags.compareRestrictedApiKey } : {}),
    };
  }
  let report;
  try {
    report = await runConformance(options);
  } catch (err) {
    if (err instanceof ConformanceConnectionError) return usage(`cannot reach the server: ${err.message}`);
    if (err instanceof ConformanceCredentialsError) return usage(err.message);
    throw err;
  }
  const out =
    flags.format === 'json'
      ? JSON.stringify(report, null, 2)
      : flags.format === 'junit'
        ? formatConformanceJunit(report, hostname() || 'payment-sandbox')
        : formatConformanceText(report);
  process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  return conformancePassed(report) ? CONFORMANCE_EXIT.passed : CONFORMANCE_EXIT.failed;
}
