/**
 * The verbs: hand actions on a running sandbox from a terminal, found as every command finds
 * it (`--sandbox-url`, else `PAYMENT_SANDBOX_URL`, else the port of `PAYMENT_SANDBOX_PORT`,
 * else 4010):
 * - `settle <transaction_id>`, `fail <transaction_id>`: the outcome now, and its webhook;
 * - `refund <transaction_id> [--amount N]`: a refund (default: the remainder), and its webhook;
 * - `trigger <event> [--account ID] [--webhook-url URL]`: creates what the event needs, plays it,
 *   prints the ids;
 * - `deliveries [--limit N] [--account ID]`: the webhook delivery log, newest first;
 * - `tail [--account ID]`: one line per `/v4` request and per webhook attempt as they happen,
 *   across restarts of the sandbox.
 * Each takes `--format text|json`. Exit 0 on success, 1 when the sandbox refused (its message
 * is printed), 2 for usage errors or an unreachable sandbox.
 */
import { Argument, Command, Option } from 'commander';
import { beforeReconnect, DEFAULT_SANDBOX_URL, sandboxOrigin } from '../../core/sandbox-client.js';
import { SANDBOX_URL_FLAG, SandboxClient, VERB_EXIT, VerbFailure, type VerbExit } from './client.js';
import { formatDeliveries, formatTailLine, formatTrigger, tailLine } from './format.js';
import { TRIGGER_EVENTS, trigger, type TriggerEvent } from './trigger.js';

/** Each verb with its arguments and one line for `--help`. */
export const VERB_SUMMARIES = {
  settle: { args: '<transaction_id>', summary: 'settle a pending payment now (SUCCEEDED) and send its webhook' },
  fail: { args: '<transaction_id>', summary: 'fail a pending payment now (FAILED) and send its webhook' },
  refund: { args: '<transaction_id> [--amount N]', summary: 'refund a settled payment (default: the remainder) and send its webhook' },
  trigger: { args: '<event>', summary: `create and play an event: ${TRIGGER_EVENTS.join(', ')}` },
  deliveries: { args: '[--limit N]', summary: 'list the webhook deliveries with their state and last answer, newest first' },
  tail: { args: '[--account ID]', summary: 'print each /v4 request and webhook attempt as it happens' },
} as const;
export type VerbName = keyof typeof VERB_SUMMARIES;

export function isVerb(name: string | undefined): name is VerbName {
  return name !== undefined && Object.hasOwn(VERB_SUMMARIES, name);
}

/** A verb's arguments, parsed and checked. */
export interface ParsedVerb {
  verb: VerbName;
  origin: string;
  adminToken?: string;
  format: 'text' | 'json';
  transactionId?: string;
  amount?: number;
  event?: TriggerEvent;
  accountId?: string;
  webhookUrl?: string;
  limit?: number;
}

/** Where a verb writes. */
export interface VerbOutput {
  out(text: string): void;
  err(text: string): void;
}

const processOutput: VerbOutput = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

interface Flags {
  sandboxUrl?: string;
  adminToken?: string;
  format: 'text' | 'json';
  amount?: string;
  account?: string;
  webhookUrl?: string;
  limit?: string;
}

function buildCommand(verb: VerbName, output: VerbOutput): Command {
  const { summary } = VERB_SUMMARIES[verb];
  const command = new Command(`payment-sandbox ${verb}`)
    .description(summary)
    .helpOption('-h, --help', 'show this help')
    .configureOutput({
      writeOut: (str) => output.out(str),
      writeErr: (str) => output.err(str),
      outputError: (str, write) => write(str.split('\n')[0] + '\n'),
    })
    .exitOverride()
    .allowExcessArguments(false)
    .addOption(
      new Option(`${SANDBOX_URL_FLAG} <origin>`, `the running sandbox's origin [env PAYMENT_SANDBOX_URL]`).default(
        undefined,
        `${DEFAULT_SANDBOX_URL}, or the port of PAYMENT_SANDBOX_PORT`,
      ),
    )
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one [env PAYMENT_SANDBOX_ADMIN_TOKEN]"))
    .addOption(new Option('--format <format>', 'text, or json').choices(['text', 'json']).default('text'));
  if (verb === 'settle' || verb === 'fail' || verb === 'refund') command.argument('<transaction_id>', 'the transaction (its id)');
  if (verb === 'refund') command.addOption(new Option('--amount <n>', 'minor units to refund (default: the remainder)'));
  if (verb === 'trigger') {
    command.addArgument(new Argument('<event>', 'the event to play').choices(TRIGGER_EVENTS));
    command.addOption(new Option('--webhook-url <url>', "where the event's webhooks go (default: the sandbox's --notification-url)"));
  }
  if (verb === 'trigger' || verb === 'deliveries' || verb === 'tail')
    command.addOption(
      new Option(
        '--account <id>',
        verb === 'trigger' ? 'the merchant account (default: the demo direct account)' : 'only this merchant account (default: all)',
      ),
    );
  if (verb === 'deliveries') command.addOption(new Option('--limit <n>', 'how many, 1 to 100').default(undefined, '20'));
  return command;
}

/** A whole number in `[min, max]`, or undefined. */
function wholeNumber(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/**
 * Parses a verb's arguments (after its name) and the environment. Returns the parsed verb, or
 * the exit code when parsing ended it: 0 after `--help`, 2 after a usage error (written to `output`).
 */
export function parseVerb(
  verb: VerbName,
  argv: string[],
  env: NodeJS.ProcessEnv,
  output: VerbOutput = processOutput,
): ParsedVerb | VerbExit {
  const command = buildCommand(verb, output);
  try {
    command.parse(argv, { from: 'user' });
    const flags = command.opts<Flags>();
    const resolved = sandboxOrigin(flags.sandboxUrl, env, SANDBOX_URL_FLAG);
    if ('error' in resolved) command.error(`error: ${resolved.error}`);
    const parsed: ParsedVerb = {
      verb,
      origin: (resolved as { origin: string }).origin,
      format: flags.format,
    };
    const token = flags.adminToken ?? (env.PAYMENT_SANDBOX_ADMIN_TOKEN || undefined);
    if (token !== undefined) parsed.adminToken = token;
    const [operand] = command.args;
    if (verb === 'trigger') parsed.event = operand as TriggerEvent;
    else if (operand !== undefined) parsed.transactionId = operand;
    if (flags.account !== undefined) parsed.accountId = flags.account;
    if (flags.webhookUrl !== undefined) {
      if (!URL.canParse(flags.webhookUrl)) command.error(`error: option '--webhook-url <url>' argument '${flags.webhookUrl}' is not a URL`);
      parsed.webhookUrl = flags.webhookUrl;
    }
    if (flags.amount !== undefined) {
      const amount = wholeNumber(flags.amount, 1, Number.MAX_SAFE_INTEGER);
      if (amount === undefined)
        command.error(`error: option '--amount <n>' argument '${flags.amount}' must be a whole number of minor units, 1 or more`);
      parsed.amount = amount;
    }
    if (flags.limit !== undefined) {
      const limit = wholeNumber(flags.limit, 1, 100);
      if (limit === undefined) command.error(`error: option '--limit <n>' argument '${flags.limit}' must be a whole number from 1 to 100`);
      parsed.limit = limit;
    }
    return parsed;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.help') return VERB_EXIT.ok;
    if (code?.startsWith('commander.')) return VERB_EXIT.usage;
    throw err;
  }
}

/** Writes `text` with one line end. */
function print(output: VerbOutput, text: string): void {
  output.out(text.endsWith('\n') ? text : `${text}\n`);
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

/**
 * Follows the change feed until `signal` aborts (exit 0). When the sandbox ends the stream (it
 * stopped, to start again), says so and follows it again once it is back (`RECONNECT_DELAYS_MS`
 * between tries). Exit 1 when the sandbox refuses the stream or does not hold `--account` (at
 * start or once back), or closed the stream because this terminal read too slowly; 2 when it
 * cannot be reached at start.
 */
async function tail(client: SandboxClient, parsed: ParsedVerb, output: VerbOutput, signal: AbortSignal): Promise<VerbExit> {
  if (parsed.accountId !== undefined) await client.accountClock(parsed.accountId); // an account the sandbox does not hold is refused
  const where = `${client.origin}${parsed.accountId === undefined ? '' : ` (account ${parsed.accountId})`}`;
  let lost = false;
  for (let tries = 0; ; tries++) {
    let opened = false;
    let dropped = false;
    try {
      // The sandbox that is back must still hold the account (one in memory starts afresh).
      if (lost && parsed.accountId !== undefined) await client.accountClock(parsed.accountId);
      for await (const { event, data } of client.events(signal)) {
        if (event === 'ready') {
          opened = true;
          output.err(lost ? `tailing ${where} again\n` : `tailing ${where}; Ctrl-C to stop\n`);
        } else if (event === 'dropped') {
          dropped = true;
          break;
        } else if (event === 'change') {
          const line = tailLine(data, parsed.accountId);
          if (line !== undefined) output.out(`${parsed.format === 'json' ? JSON.stringify(line) : formatTailLine(line)}\n`);
        }
      }
    } catch (err) {
      // A stream that broke is a sandbox gone; one that cannot be opened is an answer at start,
      // and after a loss a sandbox not back yet (unreachable), unless it refuses.
      const unreachable = err instanceof VerbFailure && err.code === VERB_EXIT.usage;
      if (!opened && !(lost && unreachable)) throw err;
    }
    if (dropped) throw new VerbFailure('the sandbox closed the event stream: this terminal read too slowly', VERB_EXIT.refused);
    if (signal.aborted) return VERB_EXIT.ok;
    if (opened) {
      lost = true;
      tries = 0;
      output.err(
        `payment-sandbox tail: the sandbox at ${client.origin} ended the event stream; following it again once it is back (Ctrl-C to stop)\n`,
      );
    }
    await beforeReconnect(tries, signal);
    if (signal.aborted) return VERB_EXIT.ok;
  }
}

/** Runs a parsed verb; writes its result; resolves with the exit code. */
export async function runParsedVerb(parsed: ParsedVerb, output: VerbOutput = processOutput, signal?: AbortSignal): Promise<VerbExit> {
  const client = new SandboxClient(parsed.origin, parsed.adminToken);
  const asJson = parsed.format === 'json';
  try {
    switch (parsed.verb) {
      case 'settle':
      case 'fail': {
        const t = await (parsed.verb === 'settle' ? client.settle(parsed.transactionId!) : client.fail(parsed.transactionId!));
        print(output, asJson ? json(t) : `transaction ${t.id} ${t.status}`);
        return VERB_EXIT.ok;
      }
      case 'refund': {
        const r = await client.refund(parsed.transactionId!, parsed.amount);
        print(output, asJson ? json(r) : `refund ${r.id} of transaction ${r.transaction_id}: ${r.amount} ${r.currency} ${r.status}`);
        return VERB_EXIT.ok;
      }
      case 'trigger': {
        const result = await trigger(client, parsed.event!, {
          ...(parsed.accountId === undefined ? {} : { accountId: parsed.accountId }),
          ...(parsed.webhookUrl === undefined ? {} : { webhookUrl: parsed.webhookUrl }),
        });
        print(output, asJson ? json(result) : formatTrigger(result));
        return VERB_EXIT.ok;
      }
      case 'deliveries': {
        const page = await client.deliveries({
          ...(parsed.limit === undefined ? {} : { limit: parsed.limit }),
          ...(parsed.accountId === undefined ? {} : { accountId: parsed.accountId }),
        });
        print(output, asJson ? json(page.items) : formatDeliveries(page.items));
        return VERB_EXIT.ok;
      }
      case 'tail': {
        const stop = new AbortController();
        const onSignal = (): void => stop.abort();
        signal?.addEventListener('abort', onSignal);
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          return await tail(client, parsed, output, stop.signal);
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      }
    }
  } catch (err) {
    if (!(err instanceof VerbFailure)) throw err;
    output.err(`payment-sandbox ${parsed.verb}: ${err.message}\n`);
    return err.code;
  }
}

/** Runs `verb` with the arguments after its name; resolves with the exit code (see `VERB_EXIT`). */
export async function runVerb(verb: VerbName, argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<VerbExit> {
  const parsed = parseVerb(verb, argv, env);
  if (typeof parsed === 'number') return parsed;
  return runParsedVerb(parsed);
}
