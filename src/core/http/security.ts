/**
 * What keeps the sandbox safe to share: it answers only `Host` values of the addresses it
 * serves and `--allowed-hosts` (DNS rebinding). The rule holds on every /v4 request, reads
 * included, whatever its headers: the demo keys are published, so a page on a rebound name
 * could otherwise use them, and its GETs need send no `Origin` (a container calling by a
 * service name lists it in `--allowed-hosts`). On /buyers (its own auth) it holds for
 * browser-shaped requests (an `Origin`, `Sec-Fetch-Site`, `-Dest` or `-User` header).
 * Outside the APIs it refuses state-changing browser requests from other origins (`Origin`,
 * `Sec-Fetch-Site`) and browser POSTs to /_sandbox without a JSON content type or the
 * `X-Sandbox-Request` header (a "simple" cross-site request can carry neither), and, with
 * `--admin-token`, asks for the token on /_sandbox. Every answer gets `nosniff`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { SandboxError, type ErrorCode } from '../domain/errors.js';
import { bareHost, servedHosts, type SandboxOptions } from '../config.js';
import type { BodyEnv } from './env.js';
import { nodeBindings } from './node-env.js';

/** The header a script sends to show a POST is not a cross-site form or beacon. */
export const SANDBOX_REQUEST_HEADER = 'x-sandbox-request';
/** The header (besides `Authorization: Bearer`) that carries `--admin-token`. */
export const ADMIN_TOKEN_HEADER = 'x-sandbox-admin-token';

/** Paths that carry their own authentication (the emulated API): the checks here skip them. */
const isV4Path = (path: string): boolean => path === '/v4' || path.startsWith('/v4/');
const isApiPath = (path: string): boolean => isV4Path(path) || path === '/buyers' || path.startsWith('/buyers/');
const isControlPath = (path: string): boolean => path === '/_sandbox' || path.startsWith('/_sandbox/');
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Control reads that hold no secret: open without the admin token. */
const PUBLIC_CONTROL_PATHS = new Set(['/_sandbox/health', '/_sandbox/webhook-public-key']);

/**
 * The `Sec-Fetch-*` headers that mark a request as a browser's. Not `Sec-Fetch-Mode` alone:
 * Node's own `fetch` sends `Sec-Fetch-Mode: cors` and nothing else, and a merchant's Node
 * server calling the sandbox by a service name is not a browser (a browser sends
 * `Sec-Fetch-Site` and `Sec-Fetch-Dest` with it).
 */
const SEC_FETCH_HEADERS = ['sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'] as const;

/** Whether a request comes from a browser page: it carries an `Origin` or a browser's `Sec-Fetch-*` header. */
function isBrowserShaped(c: Context): boolean {
  return c.req.header('origin') !== undefined || SEC_FETCH_HEADERS.some((name) => c.req.header(name) !== undefined);
}

function refuse(status: number, code: ErrorCode, message: string, pointer: string): SandboxError {
  return new SandboxError(status, code, message, [{ type: 'value_error', pointer, message, location: 'header' }]);
}

/** The request's Host: the header, or the URL's host when there is none (in-process requests). */
function requestHost(c: Context): string {
  return c.req.header('host') ?? new URL(c.req.url).host;
}

function sameToken(given: string, expected: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The admin token a request carries: `Authorization: Bearer`, `X-Sandbox-Admin-Token`, or `?token=` on the event stream (EventSource sends no headers). */
function tokenOf(c: Context): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (bearer) return bearer;
  const header = c.req.header(ADMIN_TOKEN_HEADER);
  if (header) return header;
  if (c.req.path === '/_sandbox/events') return c.req.query('token');
  return undefined;
}

/** The options the guard reads: the served host names (`--host`, `--allowed-hosts`) and `--admin-token`. */
export type SecurityOptions = Pick<SandboxOptions, 'host' | 'allowedHosts' | 'adminToken'>;

/** The header every answer carries. */
const NOSNIFF: readonly [string, string] = ['X-Content-Type-Options', 'nosniff'];

/**
 * The security middleware of the whole app (see the module comment). Builds the Host
 * allow-list once. `nosniff` goes on the Node response before anything runs, so every
 * answer has it, refusals too, and Hono's light answer keeps its plain headers (setting it
 * on `c.res` afterwards built a Headers object per request: about 20 µs of a ~130 µs GET).
 * In process there is no Node response, and it is set on `c.res` after the answer.
 */
export function securityGuard(options: SecurityOptions): MiddlewareHandler<BodyEnv> {
  const hosts = servedHosts(options);
  const anyHost = options.allowedHosts.includes('*');
  // A client sends the same Host on every request: the last one's answer is kept.
  let lastHost: string | undefined;
  let lastServed = false;
  const served = (host: string): boolean => {
    if (host !== lastHost) {
      lastServed = hosts.has(bareHost(host));
      lastHost = host;
    }
    return lastServed;
  };
  /** Throws the refusal of a request the sandbox does not answer. */
  const guard = (c: Context<BodyEnv>): void => {
    const path = c.req.path;
    const api = isApiPath(path);
    if (!anyHost && (!api || isV4Path(path) || isBrowserShaped(c))) {
      const host = requestHost(c);
      if (!served(host)) {
        throw refuse(403, 'host_not_allowed', `The sandbox does not answer to the host "${host}"; add it with --allowed-hosts`, '/host');
      }
    }
    if (!api) {
      const host = requestHost(c);
      if (STATE_CHANGING.has(c.req.method)) {
        const site = c.req.header('sec-fetch-site');
        if (site !== undefined && site !== 'same-origin' && site !== 'none') {
          throw refuse(403, 'cross_origin_request', `Cross-site requests are refused (Sec-Fetch-Site: ${site})`, '/sec-fetch-site');
        }
        const origin = c.req.header('origin');
        // Sec-Fetch-Site, when sent, decides (a same-origin form POST of the payment page,
        // whose Referrer-Policy is no-referrer, carries `Origin: null`); otherwise the Origin.
        if (site === undefined && origin !== undefined) {
          let originHost: string | undefined;
          try {
            originHost = new URL(origin).host;
          } catch {
            originHost = undefined;
          }
          if (originHost === undefined || originHost.toLowerCase() !== host.toLowerCase()) {
            throw refuse(
              403,
              'cross_origin_request',
              `Requests from the origin "${origin}" are refused: only the sandbox's own pages may change it`,
              '/origin',
            );
          }
        }
        if (isControlPath(path) && (origin !== undefined || site !== undefined) && !hasJsonOrMarker(c)) {
          throw refuse(
            415,
            'unsupported_media_type',
            `A browser POST to the control API must send Content-Type: application/json or the ${SANDBOX_REQUEST_HEADER} header`,
            '/content-type',
          );
        }
      }
      if (options.adminToken !== undefined && isControlPath(path) && !PUBLIC_CONTROL_PATHS.has(path.replace(/\/+$/, ''))) {
        const given = tokenOf(c);
        if (given === undefined || !sameToken(given, options.adminToken)) {
          throw new SandboxError(
            401,
            'admin_token_required',
            'This sandbox is protected: send its --admin-token as "Authorization: Bearer <token>" or X-Sandbox-Admin-Token',
            [
              {
                type: given === undefined ? 'missing' : 'value_error',
                pointer: '/authorization',
                message: given === undefined ? 'Admin token required' : 'Wrong admin token',
                location: 'header',
              },
            ],
          );
        }
      }
    }
  };
  // Not async on a Node server: the header is already on the response.
  return (c, next) => {
    const outgoing = nodeBindings(c)?.outgoing;
    if (outgoing && !outgoing.headersSent) outgoing.setHeader(...NOSNIFF);
    guard(c);
    if (outgoing) return next();
    return next().then(() => {
      try {
        c.res.headers.set(...NOSNIFF);
      } catch {
        // an answer with immutable headers keeps them
      }
    });
  };
}

function hasJsonOrMarker(c: Context): boolean {
  if (c.req.header(SANDBOX_REQUEST_HEADER) !== undefined) return true;
  return /^application\/([\w.-]+\+)?json\s*(;.*)?$/i.test(c.req.header('content-type') ?? '');
}
