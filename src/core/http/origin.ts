/**
 * The origin a request came in on: its scheme and its `Host` header (which the security
 * guard has already checked). Payment links built from it work behind a mapped port or a
 * proxy that keeps the Host, where the listening address (`0.0.0.0:4010`) does not.
 */
import type { Context } from 'hono';

/** `http://<Host>` of `c`, or undefined for a request without a usable Host (in-process requests). */
export function requestOrigin(c: Context): string | undefined {
  const host = c.req.header('host');
  if (host === undefined || host === '') return undefined;
  const url = c.req.url;
  const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase();
  // A client sends the same Host on every request: the last answer is kept (three URL parses each).
  if (host === last.host && scheme === last.scheme) return last.origin;
  const origin = originOf(host, url);
  last = { host, scheme, origin };
  return origin;
}

/** The last Host and scheme `requestOrigin` was asked about, and its answer. */
let last: { host: string; scheme: string; origin: string | undefined } = { host: '', scheme: '', origin: undefined };

/** What `requestOrigin` answers for `host` on `url` (a function of the Host and the URL's scheme alone). */
function originOf(host: string, url: string): string | undefined {
  const origin = `${new URL(url).protocol}//${host}`;
  if (!URL.canParse(origin)) return undefined;
  const parsed = new URL(origin);
  // Only a bare host[:port]: anything that would add a path, user or query is not used.
  return parsed.host.toLowerCase() === host.toLowerCase() ? parsed.origin : undefined;
}
