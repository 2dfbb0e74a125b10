/**
 * The shadow commands:
 * - `payment-sandbox shadow --upstream URL --api-key KEY --account-id ID [--port P]
 *   [--record FILE] [--webhook-port P [--forward-webhooks-to URL]]`: runs the proxy until SIGINT or SIGTERM;
 * - `payment-sandbox shadow report [--sandbox-url URL] [--format text|json|junit]`: prints the
 *   report of a running proxy; exit 0 without differences, 1 with any, 2 for usage or an
 *   unreachable proxy;
 * - `payment-sandbox fixtures from-recording FILE [--out FILE]`: prints (or writes) the fixtures
 *   document of a recording; exit 0, or 2 for usage or a file that is not a recording.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Command, Option, type OptionValues } from 'commander';
import { controlHeaders, sandboxOrigin, unreachableMessage } from '../../core/sandbox-client.js';
import { formatShadowJunit, formatShadowText } from './format.js';
import { fixturesFromRecording, parseRecording, RecordingError } from './from-recording.js';
import { ShadowStartError, startShadow } from './proxy.js';
import { shadowReportSchema } from './shadow-report.js';

export const SHADOW_EXIT = { ok: 0, differences: 1, usage: 2 } as const;

const program = (name: string, description: string): Command =>
  new Command(name)
    .description(description)
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride();

/** Parses `argv` with `command`: its flags, or the exit code when it printed help or refused. */
function parse<T extends OptionValues>(command: Command, argv: string[]): { flags: T } | { exit: number } {
  try {
    command.parse(argv, { from: 'user' });
    return { flags: command.opts<T>() };
  } catch (err) {
    return { exit: (err as { code?: string }).code === 'commander.helpDisplayed' ? SHADOW_EXIT.ok : SHADOW_EXIT.usage };
  }
}

const usage = (command: string, message: string): number => {
  process.stderr.write(`payment-sandbox ${command}: ${message}\n`);
  return SHADOW_EXIT.usage;
};

const portOf = (value: string | undefined): number | undefined | null => {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 65535 ? n : null;
};

/** `shadow report`. */
async function runShadowReport(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = parse<{ sandboxUrl?: string; adminToken?: string; format: string }>(
    program('payment-sandbox shadow report', 'Prints the differences a running shadow proxy found; exit 1 when there are any.')
      .addOption(new Option('--sandbox-url <url>', "the proxy's origin [env PAYMENT_SANDBOX_URL, else PAYMENT_SANDBOX_PORT, else 4010]"))
      .addOption(new Option('--admin-token <token>', 'the admin token [env PAYMENT_SANDBOX_ADMIN_TOKEN]'))
      .addOption(new Option('--format <format>', 'text, json or junit').choices(['text', 'json', 'junit']).default('text')),
    argv,
  );
  if ('exit' in parsed) return parsed.exit;
  const { flags } = parsed;
  const found = sandboxOrigin(flags.sandboxUrl, env, '--sandbox-url');
  if ('error' in found) return usage('shadow report', found.error);
  let text: string;
  let status: number;
  try {
    const res = await fetch(`${found.origin}/_sandbox/shadow`, {
      headers: controlHeaders(flags.adminToken ?? env.PAYMENT_SANDBOX_ADMIN_TOKEN),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    return usage('shadow report', unreachableMessage(found.origin, err, '--sandbox-url'));
  }
  const report = status === 200 ? shadowReportSchema.safeParse(JSON.parse(text)) : null;
  if (!report?.success) return usage('shadow report', `${found.origin} is not a shadow proxy (GET /_sandbox/shadow answered ${status})`);
  const out =
    flags.format === 'json'
      ? JSON.stringify(report.data, null, 2)
      : flags.format === 'junit'
        ? formatShadowJunit(report.data, hostname() || 'payment-sandbox')
        : formatShadowText(report.data);
  process.stdout.write(`${out}\n`);
  return report.data.summary.differences === 0 ? SHADOW_EXIT.ok : SHADOW_EXIT.differences;
}

/**
 * Runs `shadow ...` with the arguments after its name; `startSandbox` starts the in-process
 * sandbox. Resolves with the exit code (the proxy: once stopped by a signal).
 */
export async function runShadowCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  startSandbox: Parameters<typeof startShadow>[1],
): Promise<number> {
  if (argv[0] === 'report') return runShadowReport(argv.slice(1), env);
  const parsed = parse<{
    upstream?: string;
    apiKey?: string;
    accountId?: string;
    port?: string;
    host?: string;
    record?: string;
    webhookPort?: string;
    forwardWebhooksTo?: string;
  }>(
    program(
      'payment-sandbox shadow',
      'A proxy for the app: each /v4 request goes to the upstream and is replayed against a sandbox; the answers are compared. `payment-sandbox shadow report` prints the differences.',
    )
      .addOption(new Option('--upstream <url>', "the provider's test environment, ending in /v4"))
      .addOption(new Option('--api-key <key>', 'the upstream API key the app uses'))
      .addOption(new Option('--account-id <id>', 'the upstream merchant account id the app uses'))
      .addOption(new Option('--port <port>', 'the port the app calls (0: a free one)').default('4010'))
      .addOption(new Option('--host <host>', 'the address to listen on').default('127.0.0.1'))
      .addOption(new Option('--record <file>', 'append one JSON line per exchange (card data and keys redacted)'))
      .addOption(
        new Option(
          '--webhook-port <port>',
          "a port for the upstream's webhooks (point the provider's webhook URL at it): each is compared with the sandbox's",
        ),
      )
      .addOption(
        new Option('--forward-webhooks-to <url>', "the app's webhook handler: each upstream webhook is forwarded there once compared"),
      ),
    argv,
  );
  if ('exit' in parsed) return parsed.exit;
  const { flags } = parsed;
  if (!flags.upstream || !flags.apiKey || !flags.accountId) return usage('shadow', '--upstream, --api-key and --account-id are required');
  if (
    !URL.canParse(flags.upstream) ||
    !/^https?:$/.test(new URL(flags.upstream).protocol) ||
    !/\/v4\/?$/.test(new URL(flags.upstream).pathname)
  )
    return usage('shadow', `invalid --upstream "${flags.upstream}": must be an http(s) base URL ending in /v4`);
  const port = portOf(flags.port);
  const webhookPort = portOf(flags.webhookPort);
  if (port === null || port === undefined) return usage('shadow', `invalid --port "${flags.port}": must be 0 to 65535`);
  if (webhookPort === null) return usage('shadow', `invalid --webhook-port "${flags.webhookPort}": must be 0 to 65535`);
  const forward = flags.forwardWebhooksTo;
  if (forward !== undefined && (webhookPort === undefined || !URL.canParse(forward) || !/^https?:$/.test(new URL(forward).protocol)))
    return usage('shadow', '--forward-webhooks-to takes an http(s) URL, with --webhook-port');
  let running;
  try {
    running = await startShadow(
      {
        upstream: flags.upstream,
        apiKey: flags.apiKey,
        accountId: flags.accountId,
        port,
        host: flags.host ?? '127.0.0.1',
        ...(flags.record ? { record: flags.record } : {}),
        ...(webhookPort === undefined ? {} : { webhookPort }),
        ...(forward === undefined ? {} : { forwardWebhooksTo: forward }),
      },
      startSandbox,
    );
  } catch (err) {
    if (err instanceof ShadowStartError) return usage('shadow', err.message);
    const e = err as { code?: string; message?: string };
    return usage('shadow', e.code === 'EADDRINUSE' ? `port ${port} is already in use` : String(e.message));
  }
  const shadow = running;
  process.stdout.write(
    `payment-sandbox shadow ready: url=${shadow.url} port=${shadow.port}${shadow.webhookUrl ? ` webhooks=${shadow.webhookUrl}` : ''}\n` +
      `The app's base URL: ${shadow.url}/v4 (upstream ${flags.upstream}). Differences: GET ${shadow.url}/_sandbox/shadow. Stop with Ctrl-C.\n`,
  );
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      void shadow.stop().then(
        () => resolve(SHADOW_EXIT.ok),
        () => resolve(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** `fixtures from-recording FILE [--out FILE]`. */
export async function runFixturesCommand(argv: string[]): Promise<number> {
  // `fixtures --help` (and `help fixtures`) show the help of its one command
  if (argv[0] === '--help' || argv[0] === '-h') return runFixturesCommand(['from-recording', '--help']);
  if (argv[0] !== 'from-recording')
    return usage('fixtures', `unknown command '${argv[0] ?? ''}' (fixtures from-recording FILE [--out FILE])`);
  const command = program(
    'payment-sandbox fixtures from-recording',
    "Writes the fixtures document that recreates a recording's payments, refunds and outcomes.",
  )
    .argument('<file>', 'a recording (shadow --record)')
    .addOption(new Option('--out <file>', 'write the document here instead of stdout'));
  const parsed = parse<{ out?: string }>(command, argv.slice(1));
  if ('exit' in parsed) return parsed.exit;
  const file = command.args[0]!;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return usage('fixtures from-recording', `cannot read ${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  let document;
  try {
    document = fixturesFromRecording(parseRecording(text));
  } catch (err) {
    if (err instanceof RecordingError) return usage('fixtures from-recording', `${file}: ${err.message}`);
    throw err;
  }
  if (document.fixtures.length === 0) return usage('fixtures from-recording', `${file} holds no payment the upstream created`);
  const out = `${JSON.stringify(document, null, 2)}\n`;
  if (parsed.flags.out) writeFileSync(parsed.flags.out, out);
  else process.stdout.write(out);
  return SHADOW_EXIT.ok;
}
