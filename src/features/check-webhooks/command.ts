/**
 * `payment-sandbox check-webhooks <merchant URL>`: runs the battery of
 * `battery.ts` against a merchant's webhook handler and prints one line
 * per case (PASS/FAIL and why), or the whole report with `--json`. Signing options are the
 * main command's (`--webhook-signing`, `--webhook-secret`, `--webhook-timezone`, and their
 * `PAYMENT_SANDBOX_*` variables; flags win); `--state-url` also checks what the handler did, and
 * `--orders` names pending orders the shop created for the cases that need one it knows.
 * Exit code: 0 when no case fails (a case that needs `--orders` is not a failure), 1 when
 * one fails, 2 for bad options or a URL that is not http(s).
 */
import { Command, Option } from 'commander';
import { OptionsError, envName, optionsFromEnv, resolveOptions } from '../../core/config.js';
import { webhookSigningOf, type WebhookSigning } from '../../core/webhooks/signing.js';
import {
  DEFAULT_CHECK_TIMEOUT_MS,
  ORDERS_USED,
  checkWebhooks,
  problemWithOrders,
  type WebhookCheckOutcome,
  type WebhookCheckReport,
} from './battery.js';

/** Exit codes of `check-webhooks`. */
export const CHECK_EXIT = { passed: 0, failed: 1, usage: 2 } as const;

interface CheckFlags {
  webhookSigning?: string;
  webhookSecret?: string;
  webhookTimezone?: string;
  timeout?: string;
  stateUrl?: string;
  orders?: string;
  json?: boolean;
}

function buildCommand(): Command {
  return new Command('payment-sandbox check-webhooks')
    .description("Sends a merchant's webhook handler signed deliveries and reports whether it behaves as a production-ready handler must.")
    .argument('<url>', "the merchant's webhook URL (http or https)")
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride()
    .addOption(new Option('--webhook-signing <mode>', `rsa or hmac [env ${envName('webhookSigning')}]`).default(undefined, 'rsa'))
    .addOption(new Option('--webhook-secret <secret>', `HMAC secret for --webhook-signing hmac [env ${envName('webhookSecret')}]`))
    .addOption(
      new Option('--webhook-timezone <zone>', `IANA zone of webhook timestamps [env ${envName('webhookTimezone')}]`).default(
        undefined,
        'UTC',
      ),
    )
    .addOption(
      new Option('--timeout <ms>', 'how long the handler has to answer one delivery').default(undefined, String(DEFAULT_CHECK_TIMEOUT_MS)),
    )
    .addOption(
      new Option(
        '--state-url <url>',
        "your test build's order state: after each case GET <url>/<merchant_transaction_id> must show what the handler did",
      ),
    )
    .addOption(
      new Option(
        '--orders <ids>',
        `with --state-url: pending orders your shop created (external_identifiers, comma-separated; the battery uses up to ${ORDERS_USED}) for the cases that need an order it knows`,
      ),
    )
    .addOption(new Option('--json', 'print the report as JSON'));
}

const MARK: Record<WebhookCheckOutcome, string> = { passed: 'PASS', failed: 'FAIL', needs_orders: 'NEED' };

/** The report as one line per case (PASS, FAIL, or NEED for a case that needs `--orders`) and a summary line. */
export function formatReport(report: WebhookCheckReport): string {
  const state = report.stateUrl === null ? '' : `, state ${report.stateUrl}`;
  const orders = report.orders.length === 0 ? '' : `, orders ${report.orders.join(',')}`;
  const lines = [`check-webhooks ${report.url} (signing ${report.signing}, timezone ${report.timeZone}${state}${orders})`];
  for (const c of report.checks) lines.push(`${MARK[c.outcome]}  ${c.id.padEnd(22)} ${c.title}: ${c.reason}`);
  const total = report.checks.length;
  const failed = report.checks.filter((c) => c.outcome === 'failed').length;
  const needing = report.needsOrders.length;
  const needs = needing === 0 ? '' : `; ${needing} of ${total} need --orders (not failures)`;
  lines.push(failed === 0 && needing === 0 ? `all ${total} checks passed` : `${failed} of ${total} checks failed${needs}`);
  return lines.join('\n');
}

/**
 * Runs `check-webhooks` with the arguments after the subcommand name; resolves with the
 * exit code (see `CHECK_EXIT`).
 */
export async function runCheckWebhooks(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const program = buildCommand();
  let url: string;
  let flags: CheckFlags;
  try {
    program.parse(argv, { from: 'user' });
    url = program.args[0]!;
    flags = program.opts<CheckFlags>();
  } catch (err) {
    const e = err as { code?: string };
    if (e.code === 'commander.helpDisplayed') return CHECK_EXIT.passed;
    return CHECK_EXIT.usage; // commander printed its one line
  }
  let signing: WebhookSigning;
  let timeZone: string;
  let timeoutMs: number;
  const orders = flags.orders === undefined ? undefined : flags.orders.split(',').map((o) => o.trim());
  try {
    const fromEnv = optionsFromEnv(env);
    const chosen: Record<string, unknown> = {
      webhookSigning: flags.webhookSigning ?? fromEnv.webhookSigning,
      webhookSecret: flags.webhookSecret ?? fromEnv.webhookSecret,
      webhookTimezone: flags.webhookTimezone ?? fromEnv.webhookTimezone,
    };
    const options = resolveOptions(chosen);
    signing = webhookSigningOf(options);
    timeZone = options.webhookTimezone;
    timeoutMs = flags.timeout === undefined ? DEFAULT_CHECK_TIMEOUT_MS : Number(flags.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000)
      throw new OptionsError(`invalid --timeout "${flags.timeout}": must be a whole number of milliseconds, 1 to 600000`);
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      throw new OptionsError(`invalid merchant URL "${url}": must be an http(s) URL`);
    const state = flags.stateUrl === undefined ? undefined : URL.canParse(flags.stateUrl) ? new URL(flags.stateUrl) : null;
    if (state === null || (state && state.protocol !== 'http:' && state.protocol !== 'https:'))
      throw new OptionsError(`invalid --state-url "${flags.stateUrl}": must be an http(s) URL`);
    if (orders !== undefined) {
      if (flags.stateUrl === undefined) throw new OptionsError('--orders needs --state-url: the orders are read back through it');
      const problem = problemWithOrders(orders);
      if (problem !== null) throw new OptionsError(`invalid --orders "${flags.orders}": ${problem}`);
    }
  } catch (err) {
    process.stderr.write(`payment-sandbox check-webhooks: ${err instanceof Error ? err.message : String(err)}\n`);
    return CHECK_EXIT.usage;
  }
  const report = await checkWebhooks(url, {
    signing,
    timeZone,
    timeoutMs,
    ...(flags.stateUrl ? { stateUrl: flags.stateUrl } : {}),
    ...(orders ? { orders } : {}),
  });
  process.stdout.write((flags.json ? JSON.stringify(report, null, 2) : formatReport(report)) + '\n');
  return report.passed ? CHECK_EXIT.passed : CHECK_EXIT.failed;
}
