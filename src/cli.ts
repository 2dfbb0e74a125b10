/**
 * The command line: `payment-sandbox [options]`. Every option also comes from
 * `PAYMENT_SANDBOX_<NAME>` (flags win). Prints the base URL, the panel URL and the demo
 * credentials; SIGTERM/SIGINT stop it cleanly with exit code 0. Bad values exit 1 with
 * one line, no stack trace.
 */
import { Command, Option } from 'commander';
import { OptionsError, envName, optionsFromEnv, resolveOptions, type SandboxOptions } from './config.js';
import { credentialsOf } from './domain/accounts.js';
import { startServer } from './server.js';

function buildProgram(): Command {
  const program = new Command('payment-sandbox')
    .description('Local emulator of the Payment Service API (/v4) with signed webhooks, a sandbox clock and a control panel.')
    .helpOption('-h, --help', 'show this help')
    .showHelpAfterError(false)
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride();
  const opt = (flags: string, description: string, name: string, defaultText?: string): Option => {
    const o = new Option(flags, `${description} [env ${envName(name)}]`);
    if (defaultText) o.default(undefined, defaultText);
    return o;
  };
  program
    .addOption(opt('-p, --port <port>', 'port to listen on', 'port', '4010'))
    .addOption(opt('--host <host>', 'address to listen on', 'host', '127.0.0.1'))
    .addOption(opt('--db <path>', 'SQLite file; data persists across restarts', 'db', ':memory:'))
    .addOption(opt('--notification-url <url>', 'default webhook target for transactions without notification_url', 'notificationUrl'))
    .addOption(opt('--public-url <url>', 'origin used in payment links (default: the listening address)', 'publicUrl'))
    .addOption(opt('--seed <n>', 'faker seed for the generated buyers', 'seed', '4010'))
    .addOption(
      opt('--scenario <file>', 'scenario file to load before the default one (repeatable)', 'scenario').argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
    )
    .addOption(opt('--latency <ms>', 'artificial processing time inside each API call', 'latency', '0'))
    .addOption(opt('--webhook-timezone <zone>', 'IANA zone of webhook timestamps', 'webhookTimezone', 'UTC'))
    .addOption(new Option('--webhook-signing <mode>', `rsa or hmac [env ${envName('webhookSigning')}]`).default(undefined, 'rsa'))
    .addOption(opt('--webhook-secret <secret>', 'HMAC secret for --webhook-signing hmac', 'webhookSecret'))
    .addOption(opt('--restricted-channel-code <code>', 'payment_channel_code that requires billing_details and cart_items', 'restrictedChannelCode', 'RESTRICTED_WALLET'))
    .addOption(new Option('--log', 'print each API request'));
  return program;
}

/** Parses argv and the environment into options (flags win). Throws `OptionsError`. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): SandboxOptions {
  const program = buildProgram();
  program.parse(argv, { from: 'user' });
  const flags = program.opts<Record<string, unknown>>();
  const merged: Record<string, unknown> = { ...optionsFromEnv(env) };
  for (const [key, value] of Object.entries(flags)) if (value !== undefined) merged[key] = value;
  return resolveOptions(merged);
}

function banner(url: string, options: SandboxOptions, accounts: ReturnType<typeof credentialsOf>[]): string {
  const lines = [
    `payment-sandbox is running`,
    `  API         ${url}/v4`,
    `  Panel       ${url}/`,
    `  Control API ${url}/_sandbox`,
    `  OpenAPI     ${url}/openapi.json`,
    `  Database    ${options.db}`,
    `  Webhooks    ${options.notificationUrl ?? '(no default: set notification_url per transaction or --notification-url)'}; signing ${options.webhookSigning}, timezone ${options.webhookTimezone}`,
    `  Public key  ${url}/_sandbox/webhook-public-key`,
    '',
    'Demo credentials (sandbox only):',
  ];
  for (const a of accounts) {
    lines.push(`  ${a.name.padEnd(9)} mode=${a.mode.padEnd(8)} X-MERCHANT-ACCOUNT-ID: ${a.account_id}`);
    lines.push(`  ${''.padEnd(9)} Authorization: Bearer ${a.api_key}   (JWT kid ${a.jwt_kid})`);
  }
  lines.push('', 'Private JWT keys: GET /_sandbox/credentials. Stop with Ctrl-C.');
  return lines.join('\n');
}

/** Runs the CLI; resolves with the process exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: SandboxOptions;
  try {
    options = parseCli(argv, env);
  } catch (err) {
    const e = err as { code?: string; exitCode?: number; message?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
    if (e.code?.startsWith('commander.')) return e.exitCode ?? 1; // commander printed its one line
    process.stderr.write(`payment-sandbox: ${err instanceof OptionsError ? err.message : String(e.message)}\n`);
    return 1;
  }
  let running;
  try {
    running = await startServer(options);
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const reason = e.code === 'EADDRINUSE' ? `port ${options.port} on ${options.host} is already in use` : (e.message ?? String(err));
    process.stderr.write(`payment-sandbox: ${reason.split('\n')[0]}\n`);
    return 1;
  }
  process.stdout.write(banner(running.url, options, running.sandbox.stores.accounts.all().slice(0, 2).map(credentialsOf)) + '\n');
  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      process.stdout.write(`\n${signal}: stopping payment-sandbox\n`);
      running.stop().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
