/**
 * The `X-Forwarded-For` header of POST /v4/subscriptions (spec: Endpoints, "original client
 * IP address"). Real proxies write a comma-separated list, the client
 * first, and some add ports (`203.0.113.7:4711`, `[2001:db8::7]:4711`) or `unknown` for a
 * hop they cannot name. The client address is the first entry that is a valid IPv4 or IPv6
 * address once its port or brackets are taken off; other entries are passed over. A header
 * without one valid address is a 400.
 */
import { isIP } from 'node:net';
import { z } from '@hono/zod-openapi';

const PORT = /^\d{1,5}$/;

/** The address of one list entry (port and brackets removed), or undefined when it is none. */
function addressOf(entry: string): string | undefined {
  const value = entry.trim();
  if (value === '') return undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) {
    const [, address, port] = bracketed;
    return isIP(address!) === 6 && (port === undefined || Number(port) <= 65535) ? address : undefined;
  }
  if (isIP(value) !== 0) return value;
  const colon = value.lastIndexOf(':');
  if (colon > 0 && value.indexOf(':') === colon) {
    const address = value.slice(0, colon);
    const port = value.slice(colon + 1);
    if (isIP(address) === 4 && PORT.test(port) && Number(port) <= 65535) return address;
  }
  return undefined;
}

/**
 * The client address of an `X-Forwarded-For` value: the first valid address of the list,
 * without its port (`unknown, 203.0.113.7:4711, 10.0.0.1` → `203.0.113.7`), or undefined.
 */
export function clientAddress(value: string): string | undefined {
  for (const entry of value.split(',')) {
    const address = addressOf(entry);
    if (address !== undefined) return address;
  }
  return undefined;
}

/** The header schema: required, with at least one valid address in its list. */
export const forwardedForSchema = z.object({
  'x-forwarded-for': z
    .string({ error: 'Required: the original client IP address' })
    .refine(
      (v) => clientAddress(v) !== undefined,
      'Must hold an IP address: a comma-separated list of addresses (ports allowed), the client first',
    )
    .openapi({ description: 'Required: the original client IP address (the first valid address of the list).', example: '203.0.113.7' }),
});
