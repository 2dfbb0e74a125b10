/**
 * How a subcommand (`report`, `send-webhook`, `explain-signature`) reaches a running sandbox
 * (a container, a CI service, another terminal): its origin is `--url`, else
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

/** The sandbox's origin when `--url` is not given. An empty variable counts as unset. */
export function defaultOrigin(env: NodeJS.ProcessEnv): string {
  if (env.PAYMENT_SANDBOX_URL) return env.PAYMENT_SANDBOX_URL;
  return env.PAYMENT_SANDBOX_PORT ? `http://127.0.0.1:${env.PAYMENT_SANDBOX_PORT}` : DEFAULT_SANDBOX_URL;
}

/**
 * The origin to call, without a trailing slash: `flag` (the `--url` given), else
 * `defaultOrigin(env)`; `flagName` is the option named in the message. Returns an error message instead when it is not an http(s) URL.
 */
export function sandboxOrigin(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  flagName = '--url',
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
export function unreachableMessage(origin: string, err: unknown, flagName = '--url'): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `cannot reach the sandbox at ${origin} (${cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))}); is it running? (${flagName})`;
}
