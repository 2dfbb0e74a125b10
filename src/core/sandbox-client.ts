/**
 * How a subcommand (`report`, `send-webhook`, `explain-signature`) reaches a running sandbox
 * (a container, a CI service, another terminal): its origin is `--sandbox-url`, else
 * `PAYMENT_SANDBOX_URL`, else the local port the server was told to listen on
 * (`PAYMENT_SANDBOX_PORT`, as the image's healthcheck finds it), else 4010; its admin token
 * is `--admin-token`, else `PAYMENT_SANDBOX_ADMIN_TOKEN`.
 */

/** The origin of a sandbox started with the defaults. */
/** The product of the conformance kit's `User-Agent` (`payment-sandbox-conformance/<version>`): the go-live report does not count its requests. */
export const CONFORMANCE_USER_AGENT_PRODUCT = 'payment-sandbox-conformance';

/** Whether a `User-Agent` header is the conformance kit's. */
export function isConformanceUserAgent(userAgent: string | undefined): boolean {
  return userAgent !== undefined && userAgent.startsWith(`${CONFORMANCE_USER_AGENT_PRODUCT}/`);
}

export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:4010';

/** The sandbox's origin when `--sandbox-url` is not given. An empty variable counts as unset. */
export function defaultOrigin(env: NodeJS.ProcessEnv): string {
  if (env.PAYMENT_SANDBOX_URL) return env.PAYMENT_SANDBOX_URL;
  return env.PAYMENT_SANDBOX_PORT ? `http://127.0.0.1:${env.PAYMENT_SANDBOX_PORT}` : DEFAULT_SANDBOX_URL;
}

/**
 * The origin to call, without a trailing slash: `flag` (the `--sandbox-url` given), else
 * `defaultOrigin(env)`; `flagName` is the option named in the message. Returns an error message instead when it is not an http(s) URL.
 */
export function sandboxOrigin(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  flagName = '--sandbox-url',
): { origin: string } | { error: string } {
  const origin = (flag ?? defaultOrigin(env)).replace(/\/+$/, '');
  if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol))
    return { error: `invalid ${flagName} "${origin}": must be an http(s) URL such as ${DEFAULT_SANDBOX_URL}` };
  return { origin };
}

/** The request headers of a control API call: JSON, and the admin token when there is one. */
export function controlHeaders(token: string | undefined, json = false): Record<string, string> {
  return {
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(token ? { 'x-sandbox-admin-token': token } : {}),
  };
}

/** The one-line message for a sandbox that `fetch` could not reach (`err` is what it threw). */
export function unreachableMessage(origin: string, err: unknown, flagName = '--sandbox-url'): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `cannot reach the sandbox at ${origin} (${cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))}); is it running? (${flagName})`;
}

/**
 * The waits before each try to reach a sandbox again after it went away (a restart), in
 * milliseconds; the last one repeats. A command that follows a sandbox (`listen`, `tail`)
 * keeps trying until it is back.
 */
export const RECONNECT_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 5_000];

/** Waits before try `tries` (0 for the first) to connect again; resolves at once when `signal` aborts. */
export function beforeReconnect(tries: number, signal: AbortSignal, delays: readonly number[] = RECONNECT_DELAYS_MS): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, delays[Math.min(tries, delays.length - 1)]);
    signal.addEventListener('abort', done);
  });
}
