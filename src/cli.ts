/**
 * The command line: `payment-sandbox [options]`. Every option also comes from
 * `PAYMENT_SANDBOX_<NAME>` (flags win; a bad variable is named in the error). Once
 * listening it prints the ready line (`payment-sandbox ready: url=<base URL> port=<port>`,
 * first line on stdout, also under --quiet; a JSON record with --log-format json), writes
 * --port-file, then the banner (base URL, panel URL, demo credentials) and, while running,
 * the terminal's delivery and request lines. SIGTERM/SIGINT stop it cleanly with exit
 * code 0. Bad values exit 1 with one line, no stack trace. `payment-sandbox <command>` runs a
 * subcommand (listed by --help, each with `payment-sandbox help <command>`); a mistyped one
 * is refused with the nearest name suggested.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { OptionsError, envName, optionsFromEnv, packageVersion, resolveOptions, type SandboxOptions } from './core/config.js';
import { credentialsOf } from './features/accounts/index.js';
import { isVerb, runVerb, VERB_SUMMARIES } from './features/verbs/index.js';
import { createLogger, type Logger } from './core/log.js';
import { startServer } from './server.js';
import { tolerateClosedOutput } from './stdio.js';
import { attachTerminal } from './terminal.js';

const EXAMPLES = `
Examples:
  # a free port, webhooks to a local handler, JSON lines for a CI log
  $ payment-sandbox --port 0 --port-file .sandbox-port --notification-url http://127.0.0.1:3000/webhooks --log-format json

  # keep data across restarts, print each API request, try a scenario file first
  $ payment-sandbox --db ./sandbox.db --log --scenario ./my-scenarios.json

Ready line (first line on stdout): payment-sandbox ready: url=http://127.0.0.1:4010 port=4010
`;

/**
 * The subcommands, each with its arguments and one line for --help. Each is run by `main`
 * (loaded only when called) and answers `--help` itself; `help <command>` shows that.
 */
export const SUBCOMMANDS: Readonly<Record<string, { args?: string; summary: string }>> = {
  ...VERB_SUMMARIES,
  report: { summary: 'print the go-live report of a running sandbox (findings and coverage)' },
  'check-webhooks': { args: '<url>', summary: "check a merchant's webhook handler with signed deliveries" },
  'send-webhook': { summary: 'send any body as a signed webhook through a running sandbox' },
  listen: {
    args: '--forward-to <url>',
    summary: "take a running sandbox's webhooks over a stream and POST them to a local URL",
  },
  'explain-signature': { summary: 'say why a webhook signature check fails: cause, first differing byte, fix' },
  conformance: {
    args: '--url <base>/v4 --api-key <key> --account-id <id>',
    summary: 'run the behaviour checks against any server of the API, or diff two',
  },
  mcp: { summary: "a Model Context Protocol server on stdio: a coding agent's tools over a running sandbox" },
  shadow: {
    args: '--upstream <base>/v4 --api-key <key> --account-id <id>',
    summary: "a proxy to the provider's test environment that compares each answer with the sandbox's (shadow report: the differences)",
  },
  fixtures: { args: 'from-recording <file>', summary: 'turn a shadow recording into a fixtures document' },
};

/** The nearest subcommand names within a small edit distance of `typed` (a transposition counts once): those at the smallest distance. */
export function similarCommands(typed: string): string[] {
  const distance = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
    return d[a.length]![b.length]!;
  };
  const lower = typed.toLowerCase();
  return Object.keys(SUBCOMMANDS)
    .map((name) => ({ name, far: distance(lower, name) }))
    .filter(({ name, far }) => far <= Math.max(1, Math.floor(name.length / 3)) || (lower.length >= 3 && name.startsWith(lower)))
    .sort((a, b) => a.far - b.far)
    .filter(({ far }, _, nearest) => far === nearest[0]!.far)
    .map(({ name }) => name);
}

/** The one-line refusal of an unknown command, with the nearest commands suggested. */
function unknownCommand(typed: string): string {
  const near = similarCommands(typed);
  const hint =
    near.length > 0
      ? `(Did you mean ${near.join(' or ')}?)`
      : `(commands: ${Object.keys(SUBCOMMANDS).join(', ')}; see payment-sandbox --help)`;
  return `unknown command '${typed}' ${hint}`;
}

/** The commander program: every option, its default and variable in the help, the subcommands, two examples. */
export function buildProgram(): Command {
  const program = new Command('payment-sandbox')
    .description('Local emulator of the Payment Service API (/v4) with signed webhooks, a sandbox clock and a control panel.')
    .usage('[options] | <command> [arguments]')
    .helpOption('-h, --help', 'show this help')
    .allowExcessArguments(true) // an operand is a command name: refused below with a suggestion
    .configureHelp({
      visibleCommands: () => [
        ...Object.entries(SUBCOMMANDS).map(([name, { args, summary }]) =>
          // the arguments written into the name: commander would take each word for an argument
          new Command(args === undefined ? name : `${name} ${args}`).description(summary),
        ),
        new Command('help').arguments('[command]').description('show the help of a command'),
      ],
    })
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError(false)
    .showSuggestionAfterError(true)
    // commander's error and its "(Did you mean --port?)" on one line
    .configureOutput({
      outputError: (str, write) =>
        write(
          str
            .trim()
            .split('\n')
            .map((l) => l.trim())
            .join(' ') + '\n',
        ),
    })
    .addHelpText('after', EXAMPLES)
    .exitOverride();
  // The default is written into the description: a commander default would be a value,
  // and then a PAYMENT_SANDBOX_* variable could never win over an option not given.
  const opt = (flags: string, description: string, name: string, defaultText = 'none'): Option =>
    new Option(flags, `${description} (default: ${defaultText}; env ${envName(name)})`);
  program
    .addOption(opt('-p, --port <port>', 'port to listen on', 'port', '4010'))
    .addOption(opt('--host <host>', 'address to listen on', 'host', '127.0.0.1'))
    .addOption(opt('--db <path>', 'SQLite file; data persists across restarts', 'db', ':memory:'))
    .addOption(opt('--notification-url <url>', 'default webhook target for transactions without notification_url', 'notificationUrl'))
    .addOption(opt('--public-url <url>', 'origin used in payment links (default: the listening address)', 'publicUrl'))
    .addOption(opt('--seed <n>', 'faker seed for the generated buyers', 'seed', '4010'))
    .addOption(
      opt('--scenario <file>', 'scenario file to load before the default one (repeatable)', 'scenario').argParser(
        (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
      ),
    )
    .addOption(
      opt(
        '--fixtures <file>',
        'fixtures file to apply once listening (repeatable; see fixtures/fixtures.schema.json)',
        'fixtures',
      ).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
    )
    .addOption(opt('--restore <file>', 'start from a snapshot (GET /_sandbox/snapshot): in memory, or into --db', 'restore'))
    .addOption(
      opt(
        '--latency <ms>',
        'time added to each API call: milliseconds, or p50=MS,p99=MS for a log-normal distribution through both (per account: PATCH /_sandbox/accounts/{id})',
        'latency',
        '0',
      ),
    )
    .addOption(
      opt(
        '--rate-limit <n>',
        'API requests per second per account (burst of n); the rest are answered 429 with Retry-After (per account: PATCH /_sandbox/accounts/{id})',
        'rateLimit',
        '0, no limit',
      ),
    )
    .addOption(opt('--webhook-timezone <zone>', 'IANA zone of webhook timestamps', 'webhookTimezone', 'UTC'))
    .addOption(opt('--webhook-signing <mode>', 'rsa or hmac', 'webhookSigning', 'rsa'))
    .addOption(opt('--webhook-secret <secret>', 'HMAC secret for --webhook-signing hmac', 'webhookSecret'))
    .addOption(
      opt(
        '--webhook-format <format>',
        "spec (the spec's bodies, as production) or event (the overview handler's events)",
        'webhookFormat',
        'spec',
      ),
    )
    .addOption(
      opt(
        '--webhook-canary',
        'after the first acknowledged webhook to a URL, send it once a copy with a broken signature (the go-live report checks it was refused; per account: PATCH /_sandbox/accounts/{id})',
        'webhookCanary',
        'off',
      ),
    )
    .addOption(
      opt(
        '--settlement-currency <code>',
        'ISO 4217 currency payments settle in, at fixed sandbox rates',
        'settlementCurrency',
        "each payment's own",
      ),
    )
    .addOption(
      opt(
        '--restricted-channel-code <code>',
        'payment_channel_code that requires billing_details and cart_items',
        'restrictedChannelCode',
        'RESTRICTED_WALLET',
      ),
    )
    .addOption(opt('--log', 'print one line per API request', 'log', 'off'))
    .addOption(opt('--log-format <format>', 'text, or json for one JSON object a line', 'logFormat', 'text'))
    .addOption(opt('-q, --quiet', 'print only the ready line, warnings and errors (no webhook lines)', 'quiet', 'off'))
    .addOption(opt('--port-file <path>', 'write the port to this file once listening (with --port 0)', 'portFile'))
    .addOption(
      opt(
        '--allowed-hosts <names>',
        'comma-separated Host names the API, control API and panel also answer to (* for any)',
        'allowedHosts',
      ),
    )
    .addOption(opt('--admin-token <token>', 'token that protects /_sandbox, the panel and the credentials', 'adminToken'))
    .addOption(opt('--webhook-allow-hosts <names>', 'comma-separated hosts webhooks may be sent to (others refused)', 'webhookAllowHosts'))
    .addOption(opt('--request-log-limit <n>', 'newest request-log entries kept', 'requestLogLimit', '10000'))
    .addOption(opt('--delivery-log-limit <n>', 'newest finished deliveries kept', 'deliveryLogLimit', '10000'))
    .addOption(opt('--max-event-streams <n>', 'open event streams (panels) at once', 'maxEventStreams', '32'))
    .addOption(opt('--max-accounts <n>', 'merchant accounts, demo accounts included', 'maxAccounts', '100'))
    .addOption(opt('--max-header-size <bytes>', 'largest request head; larger is a 431', 'maxHeaderSize', '16384'))
    .addOption(
      opt('--key-pool <n>', 'account key pairs made ahead of time once listening (0: made per POST /_sandbox/accounts)', 'keyPool', '4'),
    );
  return program;
}

/** Parses argv and the environment into options (flags win). Throws `OptionsError`. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): SandboxOptions {
  const program = buildProgram();
  program.parse(argv, { from: 'user' });
  if (program.args.length > 0) program.error(`error: ${unknownCommand(program.args[0]!)}`, { code: 'commander.unknownCommand' });
  const flags = program.opts<Record<string, unknown>>();
  const merged: Record<string, unknown> = { ...optionsFromEnv(env) };
  const fromEnv = new Set(Object.keys(merged));
  for (const [key, value] of Object.entries(flags)) {
    if (value === undefined || key === 'version') continue;
    merged[key] = value;
    fromEnv.delete(key);
  }
  return resolveOptions(merged, fromEnv);
}

/** Whether `host` is a wildcard address: the server listens on every interface. */
function allInterfaces(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The start banner: the addresses to open (a reachable one when listening on all interfaces), the database, webhooks and the demo credentials. */
export function banner(listening: string, options: SandboxOptions, accounts: ReturnType<typeof credentialsOf>[]): string {
  const wildcard = allInterfaces(options.host);
  const port = /:(\d+)\/?$/.exec(listening)?.[1] ?? String(options.port);
  // 0.0.0.0 is where it listens, not an address to open: loopback reaches it on this machine.
  const url = wildcard ? `http://${options.host === '0.0.0.0' ? '127.0.0.1' : '[::1]'}:${port}` : listening;
  const lines = [
    `payment-sandbox is running`,
    ...(wildcard ? [`  Listening   on all interfaces (${options.host}), port ${port}; from this machine:`] : []),
    `  API         ${url}/v4`,
    `  Panel       ${url}/`,
    `  Docs        ${url}/docs`,
    `  Reference   ${url}/reference`,
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

/** The ready line's text: `payment-sandbox ready: url=http://127.0.0.1:4010 port=4010`. */
export function readyLine(url: string, port: number): string {
  return `payment-sandbox ready: url=${url} port=${port}`;
}

/** Writes `port` to `path` whole (a temporary file renamed into place), so a reader never sees half a file. */
function writePortFile(path: string, port: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${port}\n`);
  renameSync(temporary, path);
}

/** Runs the CLI; resolves with the process exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Loaded only for that command: it is not on the server's start-up path.
  if (argv[0] === 'check-webhooks') return (await import('./features/check-webhooks/index.js')).runCheckWebhooks(argv.slice(1), env); // the webhook handler checker
  if (argv[0] === 'report') return (await import('./features/go-live/index.js')).runReport(argv.slice(1), env); // the go-live report
  if (argv[0] === 'send-webhook') return (await import('./features/webhooks/index.js')).runSendWebhook(argv.slice(1), env); // the webhook workbench
  if (argv[0] === 'explain-signature') return (await import('./features/webhooks/index.js')).runExplainSignature(argv.slice(1), env);
  if (argv[0] === 'listen') return (await import('./features/forwarder/index.js')).runListen(argv.slice(1), env); // the webhook forwarder
  if (argv[0] === 'mcp') return (await import('./features/mcp/index.js')).runMcp(argv.slice(1), env); // an agent's tools, on stdio
  if (isVerb(argv[0])) return runVerb(argv[0], argv.slice(1), env); // the verbs on a running sandbox
  if (argv[0] === 'conformance') return (await import('./features/conformance/index.js')).runConformanceCommand(argv.slice(1));
  if (argv[0] === 'shadow') {
    const [{ runShadowCommand }, { startInProcessSandbox }] = await Promise.all([
      import('./features/shadow/index.js'),
      import('./in-process-sandbox.js'),
    ]);
    return runShadowCommand(argv.slice(1), env, startInProcessSandbox);
  }
  if (argv[0] === 'fixtures') return (await import('./features/shadow/index.js')).runFixturesCommand(argv.slice(1));
  if (argv[0] === 'help') {
    const topic = argv[1];
    if (topic === undefined) return main(['--help'], env);
    if (topic in SUBCOMMANDS) return main([topic, '--help'], env);
    process.stderr.write(`error: ${unknownCommand(topic)}\n`);
    return 1;
  }
  if (argv[0] !== undefined && !argv[0].startsWith('-')) {
    // Options all start with '-': a first word is a command name, mistyped (its options may not be the program's)
    process.stderr.write(`error: ${unknownCommand(argv[0])}\n`);
    return 1;
  }
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
  tolerateClosedOutput(); // `payment-sandbox | head -1` must not crash it
  const log: Logger = createLogger({ format: options.logFormat, quiet: options.quiet });
  let running;
  try {
    running = await startServer(options, { logger: log, collectWhenIdle: true });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const reason = e.code === 'EADDRINUSE' ? `port ${options.port} on ${options.host} is already in use` : (e.message ?? String(err));
    log.error('start.failed', reason.split('\n')[0]!);
    return 1;
  }
  const server = running;
  // Signals are heard before the port file and the ready line: a script that stops the sandbox as
  // soon as it reads either gets a clean stop, never a kill.
  let detach = (): void => {};
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      log.info('stopping', `${signal}: stopping payment-sandbox`, { signal });
      detach();
      server.stop().then(
        () => {
          if (options.portFile) rmSync(options.portFile, { force: true });
          resolve(0);
        },
        () => resolve(1),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  if (options.portFile) {
    try {
      writePortFile(options.portFile, server.port);
    } catch (err) {
      log.error('start.failed', `cannot write --port-file ${options.portFile}: ${(err as Error).message.split('\n')[0]}`);
      await server.stop();
      return 1;
    }
  }
  // The ready line is printed even with --quiet: scripts wait for it.
  createLogger({ format: options.logFormat }).info('ready', readyLine(server.url, server.port), {
    url: server.url,
    port: server.port,
    api: `${server.url}/v4`,
    panel: `${server.url}/`,
    openapi: `${server.url}/openapi.json`,
  });
  if (options.logFormat === 'text' && !options.quiet) {
    process.stdout.write(banner(server.url, options, server.features.accounts.queries.all().slice(0, 2).map(credentialsOf)) + '\n');
  }
  detach = attachTerminal(server.core.events, log, { requests: options.log });
  return stopped;
}
