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
  const origin = `${new URL(c.req.url).protocol}//${host}`;
  if (!URL.canParse(origin)) return undefined;
  const parsed = new URL(origin);
  // Only a bare host[:port]: anything that would add a path, user or query is not used.
  return parsed.host.toLowerCase() === host.toLowerCase() ? parsed.origin : undefined;
}
