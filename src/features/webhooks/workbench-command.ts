/**
 * The webhook workbench from a terminal, over a running sandbox's control API (found as
 * `report` finds it: `--sandbox-url`, else `PAYMENT_SANDBOX_URL`, else the port of
 * `PAYMENT_SANDBOX_PORT`, else 4010):
 * - `payment-sandbox send-webhook --account <id> [--url <webhook url>] (--body <text> |
 *   --file <path> | -)`: `POST /_sandbox/webhooks/send` with the text, sent byte for byte;
 *   prints the queued delivery. Exit 0 when queued, 1 when the sandbox refused it, 2 for
 *   usage errors or an unreachable sandbox. With `--wait` it then waits for the first
 *   attempt's answer (with `--timeout <seconds>`: for the delivery's final state, retries
 *   included, at most that long) and prints the handler's status and body: exit 0 when
 *   acknowledged, 1 otherwise.
 * - `payment-sandbox explain-signature --signature <value> (--body <text> | --body-file
 *   <path> | -) [--delivery <id>] [--public-key-file <path>]`: `POST
 *   /_sandbox/signatures/explain`; prints the cause, the first differing byte and the fix.
 *   Exit 0 when the signature is valid, 1 when the answer names a failure cause, 2 for usage
 *   errors, an unreachable sandbox or a refused request.
 * A file given by path (`--file`, `--body-file`, `--public-key-file`) must be a regular file of
 * at most the sandbox's default body limit, and stdin is read up to it: anything else is a
 * usage error (exit 2) before anything is sent.
 */
import { Command, Option } from 'commander';
import { BoundedReadError, readBoundedFile } from '../../core/bounded-file.js';
import { DEFAULT_BODY_LIMIT } from '../../core/config.js';
import { controlHeaders, DEFAULT_SANDBOX_URL, sandboxOrigin, unreachableMessage } from '../../core/sandbox-client.js';
import type { Delivery } from './control.schemas.js';
import type { SignatureExplanation } from './control.schemas.js';

/** Exit codes of `send-webhook` and `explain-signature`. */
export const WORKBENCH_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A failure that ends the command with exit code `code` after printing `message`. */
class CommandFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

const SANDBOX_FLAG = '--sandbox-url';

/** The options both commands share: where the sandbox is, its admin token, `--json`. */
function commonOptions(command: Command): Command {
  return command
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride()
    .allowExcessArguments(false)
    .addOption(
      new Option(`${SANDBOX_FLAG} <origin>`, `the running sandbox's origin [env PAYMENT_SANDBOX_URL]`).default(
        undefined,
        `${DEFAULT_SANDBOX_URL}, or the port of PAYMENT_SANDBOX_PORT`,
      ),
    )
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one [env PAYMENT_SANDBOX_ADMIN_TOKEN]"))
    .addOption(new Option('--json', "print the sandbox's answer as JSON"));
}

interface CommonFlags {
  sandboxUrl?: string;
  adminToken?: string;
  json?: boolean;
}

/** Parses `argv`; returns the flags and operands, or the exit code when commander ended it (help, or a usage error it printed). */
function parse<T>(program: Command, argv: string[]): { flags: T; operands: string[] } | number {
  try {
    program.parse(argv, { from: 'user' });
    return { flags: program.opts<T & object>(), operands: program.args };
  } catch (err) {
    return (err as { code?: string }).code === 'commander.helpDisplayed' ? WORKBENCH_EXIT.ok : WORKBENCH_EXIT.usage;
  }
}

/** A file the user gave (or stdin, `0`), read up to the body limit; exit 2 with the reason otherwise. */
function readGivenFile(path: string | 0): Buffer {
  try {
    return readBoundedFile(path, DEFAULT_BODY_LIMIT);
  } catch (err) {
    const reason = err instanceof BoundedReadError ? err.reason : (err as Error).message.split('\n')[0];
    throw new CommandFailure(`cannot read ${path === 0 ? 'stdin' : path}: ${reason}`, WORKBENCH_EXIT.usage);
  }
}

/** The bytes of the one body source given: `--body` text, a file, or `-` (stdin). */
function bodyBytes(name: string, text: string | undefined, file: string | undefined, operands: string[]): Buffer {
  const stdin = operands.length === 1 && operands[0] === '-';
  if (operands.length > 0 && !stdin) throw new CommandFailure(`unexpected argument '${operands[0]}' (only - reads the body from stdin)`, 2);
  const given = [text !== undefined, file !== undefined, stdin].filter(Boolean).length;
  if (given !== 1) throw new CommandFailure(`give the body once: --body <text>, ${name} <path> or - for stdin`, 2);
  if (text !== undefined) return Buffer.from(text, 'utf8');
  return readGivenFile(stdin || file === '-' ? 0 : file!);
}

/**
 * Calls `path` of the sandbox (a POST when `body` is given, else a GET); the status and the
 * parsed answer (exit 2 when unreachable or not JSON).
 */
async function call(origin: string, path: string, token: string | undefined, body?: unknown): Promise<{ status: number; answer: unknown }> {
  const method = body === undefined ? 'GET' : 'POST';
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${origin}${path}`, {
      method,
      headers: controlHeaders(token, body !== undefined),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    text = await res.text();
  } catch (err) {
    throw new CommandFailure(unreachableMessage(origin, err, SANDBOX_FLAG), 2);
  }
  try {
    return { status: res.status, answer: JSON.parse(text) };
  } catch {
    throw new CommandFailure(`${method} ${origin}${path} answered ${res.status}: ${text.slice(0, 300)}`, 2);
  }
}

/** How long `--wait` waits for a first attempt without `--timeout` (an attempt itself gives up after 10 s). */
const FIRST_ATTEMPT_WAIT_SECONDS = 60;
const POLL_MS = 100;

/**
 * Reads the delivery until its first attempt has an answer (`final` false) or it is delivered or
 * failed (`final` true), at most `seconds`; the delivery as last read, and whether it got there.
 */
async function awaitDelivery(
  origin: string,
  id: string,
  token: string | undefined,
  final: boolean,
  seconds: number,
): Promise<{ delivery: Delivery; reached: boolean }> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const { status, answer } = await call(origin, `/_sandbox/deliveries/${encodeURIComponent(id)}`, token);
    if (status !== 200) throw new CommandFailure(refusal(status, answer), WORKBENCH_EXIT.failed);
    const delivery = answer as Delivery;
    const reached = final ? delivery.state === 'delivered' || delivery.state === 'failed' : delivery.attempts.length > 0;
    if (reached || Date.now() >= deadline) return { delivery, reached };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What `--wait` prints: the delivery's state, then the attempt's answer (the first, or the last with `--timeout`). */
function formatWaited(delivery: Delivery, final: boolean, reached: boolean, seconds: number): string {
  const attempt = final ? delivery.attempts[delivery.attempts.length - 1] : delivery.attempts[0];
  const lines = [`delivery ${delivery.id}: ${delivery.state}`];
  if (!reached)
    lines.push(
      final
        ? `  not delivered or given up after ${seconds} s (attempts so far: ${delivery.attempts.length})`
        : `  no attempt after ${seconds} s`,
    );
  if (attempt !== undefined) {
    lines.push(`  attempt ${attempt.number}  ${attempt.ok ? 'acknowledged' : 'not acknowledged'}`);
    lines.push(`  status  ${attempt.response_status ?? '(no answer)'}`);
    if (attempt.error !== null) lines.push(`  error   ${attempt.error}`);
    lines.push(`  body    ${attempt.response_body ?? ''}`);
  }
  return lines.join('\n');
}

/** The error envelope's message and each detail, one per line. */
function refusal(status: number, answer: unknown): string {
  const envelope = answer as { message?: string; details?: { location?: string; pointer?: string; message?: string }[] };
  const lines = [`refused (${status}): ${envelope.message ?? JSON.stringify(answer)}`];
  for (const d of envelope.details ?? []) lines.push(`  ${`${d.location ?? ''}${d.pointer ?? ''}`}: ${d.message ?? ''}`.trimEnd());
  return lines.join('\n');
}

/** Runs one command body; prints what it returns or its failure; resolves with the exit code. */
async function run(name: string, work: () => Promise<{ out: string; code: number }>): Promise<number> {
  try {
    const { out, code } = await work();
    process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
    return code;
  } catch (err) {
    if (!(err instanceof CommandFailure)) throw err;
    process.stderr.write(`payment-sandbox ${name}: ${err.message}\n`);
    return err.code;
  }
}

interface SendFlags extends CommonFlags {
  account: string;
  url?: string;
  wait?: boolean;
  timeout?: string;
  body?: string;
  file?: string;
}

/** Runs `send-webhook` with the arguments after its name; resolves with the exit code (see `WORKBENCH_EXIT`). */
export async function runSendWebhook(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const program = commonOptions(
    new Command('payment-sandbox send-webhook')
      .description(
        'Sends any body to a webhook URL through a running sandbox, signed as every delivery is and queued with the same retries, log, faults and target guard. The body is sent byte for byte.',
      )
      .usage('--account <id> [--url <webhook url>] (--body <text> | --file <path> | -) [options]')
      .argument('[-]', 'read the body from stdin'),
  )
    .addOption(new Option('--account <id>', 'the merchant account whose webhook this is').makeOptionMandatory())
    .addOption(new Option('--url <url>', "where to send it (default: the sandbox's --notification-url)"))
    .addOption(new Option('--body <text>', 'the body, usually JSON text'))
    .addOption(new Option('--file <path>', 'read the body from this file (- for stdin)'))
    .addOption(
      new Option('--wait', "wait for the first attempt's answer and print the handler's status and body (exit 1 unless acknowledged)"),
    )
    .addOption(
      new Option('--timeout <seconds>', 'with --wait: wait for the final state (retries included), at most this long').default(
        undefined,
        `the first attempt, at most ${FIRST_ATTEMPT_WAIT_SECONDS} s`,
      ),
    )
    .addHelpText(
      'after',
      `\nExample:\n  $ payment-sandbox send-webhook --account <id> --url http://127.0.0.1:3000/webhooks --file captured.json --wait\n`,
    );
  const parsed = parse<SendFlags>(program, argv);
  if (typeof parsed === 'number') return parsed;
  const { flags, operands } = parsed;
  return run('send-webhook', async () => {
    const resolved = sandboxOrigin(flags.sandboxUrl, env, SANDBOX_FLAG);
    if ('error' in resolved) throw new CommandFailure(resolved.error, 2);
    let timeout: number | undefined;
    if (flags.timeout !== undefined) {
      if (!flags.wait) throw new CommandFailure('--timeout goes with --wait', WORKBENCH_EXIT.usage);
      timeout = /^\d+(\.\d+)?$/.test(flags.timeout) ? Number(flags.timeout) : NaN;
      if (!(timeout > 0 && timeout <= 86_400))
        throw new CommandFailure(`invalid --timeout "${flags.timeout}": seconds, more than 0 and at most 86400`, WORKBENCH_EXIT.usage);
    }
    const body = bodyBytes('--file', flags.body, flags.file, operands).toString('utf8');
    const request = { account_id: flags.account, ...(flags.url === undefined ? {} : { url: flags.url }), body };
    const token = flags.adminToken ?? env.PAYMENT_SANDBOX_ADMIN_TOKEN;
    const { status, answer } = await call(resolved.origin, '/_sandbox/webhooks/send', token, request);
    if (status !== 201) {
      if (flags.json) return { out: JSON.stringify(answer, null, 2), code: WORKBENCH_EXIT.failed };
      throw new CommandFailure(refusal(status, answer), WORKBENCH_EXIT.failed);
    }
    const queued = answer as Delivery;
    if (!flags.wait) {
      const out = flags.json
        ? JSON.stringify(queued, null, 2)
        : [`queued delivery ${queued.id}`, `  url     ${queued.url ?? '(none)'}`, `  state   ${queued.state}`].join('\n');
      return { out, code: WORKBENCH_EXIT.ok };
    }
    const final = timeout !== undefined;
    const seconds = timeout ?? FIRST_ATTEMPT_WAIT_SECONDS;
    const { delivery, reached } = await awaitDelivery(resolved.origin, queued.id, token, final, seconds);
    const attempt = final ? delivery.attempts[delivery.attempts.length - 1] : delivery.attempts[0];
    const acknowledged = final ? delivery.state === 'delivered' : attempt?.ok === true;
    return {
      out: flags.json ? JSON.stringify(delivery, null, 2) : formatWaited(delivery, final, reached, seconds),
      code: acknowledged ? WORKBENCH_EXIT.ok : WORKBENCH_EXIT.failed,
    };
  });
}

interface ExplainFlags extends CommonFlags {
  signature: string;
  body?: string;
  bodyFile?: string;
  delivery?: string;
  publicKeyFile?: string;
}

/** The explanation as text: the cause, the delivery, the first differing byte, the detail and the fix. */
function formatExplanation(e: SignatureExplanation): string {
  const lines = [e.valid ? 'valid: the signature matches these bytes' : `invalid: ${e.cause}`];
  if (e.delivery_id !== undefined) lines.push(`  delivery          ${e.delivery_id}`);
  if (e.first_difference !== undefined) {
    const d = e.first_difference;
    lines.push(`  first difference  byte ${d.offset}: sent ${JSON.stringify(d.sent)}, received ${JSON.stringify(d.received)}`);
  }
  lines.push(`  detail            ${e.detail}`, `  fix               ${e.fix}`);
  return lines.join('\n');
}

/** Runs `explain-signature` with the arguments after its name; resolves with the exit code (see `WORKBENCH_EXIT`). */
export async function runExplainSignature(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const program = commonOptions(
    new Command('payment-sandbox explain-signature')
      .description(
        'Says why a webhook signature check fails, from the body and signature header your handler verified: one cause, the first differing byte and the fix.',
      )
      .usage('--signature <value> (--body <text> | --body-file <path> | -) [options]')
      .argument('[-]', 'read the body from stdin'),
  )
    .addOption(new Option('--signature <value>', 'the signature header value the handler verified').makeOptionMandatory())
    .addOption(new Option('--body <text>', 'the body text the handler verified'))
    .addOption(new Option('--body-file <path>', 'read the exact bytes the handler verified from this file (- for stdin)'))
    .addOption(new Option('--delivery <id>', 'the delivery (default: found by its signature or body)'))
    .addOption(new Option('--public-key-file <path>', 'the PEM public key the handler verified with'))
    .addHelpText(
      'after',
      `\nExit code: 0 when the signature is valid, 1 when the answer names a failure cause, 2 for usage errors.\n\nExample:\n  $ payment-sandbox explain-signature --body-file body.bin --signature "$SIGNATURE"\n`,
    );
  const parsed = parse<ExplainFlags>(program, argv);
  if (typeof parsed === 'number') return parsed;
  const { flags, operands } = parsed;
  return run('explain-signature', async () => {
    const resolved = sandboxOrigin(flags.sandboxUrl, env, SANDBOX_FLAG);
    if ('error' in resolved) throw new CommandFailure(resolved.error, 2);
    const bytes = bodyBytes('--body-file', flags.body, flags.bodyFile, operands);
    let publicKey: string | undefined;
    if (flags.publicKeyFile !== undefined) publicKey = readGivenFile(flags.publicKeyFile).toString('utf8');
    const request = {
      // a file's bytes go as base64, so that nothing (an encoding, a line end) changes them on the way
      ...(flags.body !== undefined ? { body: flags.body } : { body_base64: bytes.toString('base64') }),
      signature: flags.signature,
      ...(flags.delivery === undefined ? {} : { delivery_id: flags.delivery }),
      ...(publicKey === undefined ? {} : { public_key: publicKey }),
    };
    const { status, answer } = await call(
      resolved.origin,
      '/_sandbox/signatures/explain',
      flags.adminToken ?? env.PAYMENT_SANDBOX_ADMIN_TOKEN,
      request,
    );
    if (status !== 200) throw new CommandFailure(refusal(status, answer), WORKBENCH_EXIT.usage);
    const explanation = answer as SignatureExplanation;
    return {
      out: flags.json ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation),
      code: explanation.valid ? WORKBENCH_EXIT.ok : WORKBENCH_EXIT.failed,
    };
  });
}
