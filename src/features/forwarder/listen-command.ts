/**
 * `payment-sandbox listen --forward-to <url> [--account <id>] [--sandbox-url <origin>]`: takes
 * the running sandbox's webhook deliveries over a stream and POSTs each to `--forward-to`, for a
 * sandbox (in a container, a CI service) that cannot reach the merchant's server itself. The
 * sandbox is found as the other commands find it: `--sandbox-url`, else `PAYMENT_SANDBOX_URL`,
 * else the port of `PAYMENT_SANDBOX_PORT`, else 4010. Prints one line per forwarded delivery
 * and runs until SIGINT or SIGTERM (exit 0). When the sandbox goes away (a restart), it says
 * so and connects again once the sandbox is back (`keep-forwarding.ts`). Exit 1 when the
 * sandbox refused the listener, at start or on connecting again; 2 for usage errors or a
 * sandbox unreachable at start.
 */
import { Command, Option } from 'commander';
import { DEFAULT_SANDBOX_URL, sandboxOrigin } from '../../core/sandbox-client.js';
import { ForwardWebhooksError, type ForwardedDelivery } from './forward-webhooks.js';
import { keepForwarding } from './keep-forwarding.js';

export const LISTEN_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

interface ListenFlags {
  forwardTo: string;
  account?: string;
  sandboxUrl?: string;
  adminToken?: string;
}

/** One printed line: time, event/status, transaction, the handler's answer and duration. */
export function forwardedLine(f: ForwardedDelivery): string {
  const answer = f.status === null ? `error: ${f.error ?? 'no answer'}` : `${f.status}${f.error ? ` (${f.error})` : ''}`;
  const retry = f.number > 1 ? ` attempt ${f.number}` : '';
  return `${f.at.toISOString()}  ${f.kind}${f.event ? `/${f.event}` : ''}  ${f.resourceId}  -> ${answer}  ${Math.round(f.durationMs)} ms${retry}  [${f.deliveryId}]`;
}

/** Runs `listen` with the arguments after its name; resolves with the exit code once stopped. */
export async function runListen(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  signals: Pick<NodeJS.Process, 'once' | 'off'> = process,
): Promise<number> {
  const program = new Command('payment-sandbox listen')
    .description(
      "Takes a running sandbox's webhook deliveries over a stream and POSTs each to --forward-to with the same headers and bytes; the handler's answer is recorded as the attempt's (retries, order and the go-live report as for a direct delivery). For a sandbox in a container that cannot reach localhost on your machine. When the sandbox restarts, it connects again once the sandbox is back.",
    )
    .usage('--forward-to <url> [--account <id>] [options]')
    .helpOption('-h, --help', 'show this help')
    .configureOutput({ outputError: (str, write) => write(str.split('\n')[0] + '\n') })
    .exitOverride()
    .allowExcessArguments(false)
    .addOption(new Option('--forward-to <url>', 'where to POST every webhook, e.g. http://localhost:3000/webhooks').makeOptionMandatory())
    .addOption(new Option('--account <id>', "take only this merchant account's deliveries (default: every account's)"))
    .addOption(
      new Option('--sandbox-url <origin>', "the running sandbox's origin [env PAYMENT_SANDBOX_URL]").default(
        undefined,
        `${DEFAULT_SANDBOX_URL}, or the port of PAYMENT_SANDBOX_PORT`,
      ),
    )
    .addOption(new Option('--admin-token <token>', "the sandbox's --admin-token, if it has one [env PAYMENT_SANDBOX_ADMIN_TOKEN]"))
    .addHelpText(
      'after',
      `\nExample:\n  $ payment-sandbox listen --forward-to http://localhost:3000/webhooks --sandbox-url http://127.0.0.1:4010\n`,
    );
  let flags: ListenFlags;
  try {
    program.parse(argv, { from: 'user' });
    flags = program.opts<ListenFlags>();
  } catch (err) {
    return (err as { code?: string }).code === 'commander.helpDisplayed' ? LISTEN_EXIT.ok : LISTEN_EXIT.usage;
  }
  const fail = (message: string, code: number): number => {
    process.stderr.write(`payment-sandbox listen: ${message}\n`);
    return code;
  };
  const resolved = sandboxOrigin(flags.sandboxUrl, env, '--sandbox-url');
  if ('error' in resolved) return fail(resolved.error, LISTEN_EXIT.usage);
  if (!URL.canParse(flags.forwardTo) || !/^https?:$/.test(new URL(flags.forwardTo).protocol))
    return fail(
      `invalid --forward-to "${flags.forwardTo}": must be an http(s) URL such as http://localhost:3000/webhooks`,
      LISTEN_EXIT.usage,
    );
  const adminToken = flags.adminToken ?? env.PAYMENT_SANDBOX_ADMIN_TOKEN;
  const scope = flags.account ? `account ${flags.account}` : 'every account';
  let forwarder;
  try {
    forwarder = await keepForwarding({
      sandboxUrl: resolved.origin,
      forwardTo: flags.forwardTo,
      ...(flags.account ? { accountId: flags.account } : {}),
      ...(adminToken ? { adminToken } : {}),
      onForward: (f) => process.stdout.write(`${forwardedLine(f)}\n`),
      onLost: (reason) => process.stderr.write(`payment-sandbox listen: ${reason}; connecting again once it is back (Ctrl-C to stop)\n`),
      onBack: () => process.stdout.write(`listening again to ${resolved.origin} for ${scope}\n`),
    });
  } catch (err) {
    if (err instanceof ForwardWebhooksError) return fail(err.message, err.refused ? LISTEN_EXIT.failed : LISTEN_EXIT.usage);
    return fail(err instanceof Error ? err.message : String(err), LISTEN_EXIT.failed);
  }
  process.stdout.write(`listening to ${resolved.origin} for ${scope}; forwarding webhooks to ${flags.forwardTo} (Ctrl-C to stop)\n`);
  const running = forwarder;
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      void running.stop().then(() => resolve(LISTEN_EXIT.ok));
    };
    signals.once('SIGINT', stop);
    signals.once('SIGTERM', stop);
    running.closed.then(
      () => {},
      (err: unknown) => {
        signals.off('SIGINT', stop);
        signals.off('SIGTERM', stop);
        resolve(fail(err instanceof Error ? err.message : String(err), LISTEN_EXIT.failed));
      },
    );
  });
}
