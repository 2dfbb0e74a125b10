/**
 * Which URLs the sandbox may send webhooks to: http(s) only; never the
 * sandbox itself (a merchant URL of its own /_sandbox/reset must not wipe it); never a
 * link-local, site-local, cloud-metadata, local-use NAT64 (`64:ff9b:1::/48`), unspecified,
 * multicast or broadcast address; with `--webhook-allow-hosts`, only the hosts listed. Every address is judged in its canonical
 * form: IPv4 written as IPv6 (`::ffff:169.254.169.254`, `::ffff:7f00:1`, IPv4-compatible
 * `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) is judged as the IPv4 address it
 * carries, and the WHATWG URL parser already turns `0x7f.1`, `0177.0.0.1` and `2130706433`
 * into `127.0.0.1`. Checked when a target is accepted (the address as written), before each
 * delivery (the addresses the name resolves to) and at connect time (`connectGuard`: the
 * address actually connected to, so a name that resolves differently by then is caught).
 * Redirects are never followed (dispatcher.ts).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface TargetPolicy {
  /** `--webhook-allow-hosts`, lower case; empty allows any host. */
  allowHosts: readonly string[];
  /** The sandbox's own listening port and the addresses it answers on, when known. */
  own(): { port: number; hosts: ReadonlySet<string> } | undefined;
}

/** Where nobody's webhook handler lives. */
const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network", 0.0.0.0
FORBIDDEN.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, 169.254.169.254 metadata
FORBIDDEN.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
FORBIDDEN.addAddress('168.63.129.16', 'ipv4'); // Azure's platform endpoint (wire server)
FORBIDDEN.addAddress('192.0.0.192', 'ipv4'); // Oracle Cloud metadata
FORBIDDEN.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
FORBIDDEN.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, 255.255.255.255 broadcast
FORBIDDEN.addAddress('::', 'ipv6'); // unspecified
FORBIDDEN.addSubnet('fe80::', 10, 'ipv6'); // link-local
FORBIDDEN.addSubnet('fec0::', 10, 'ipv6'); // site-local (deprecated, still routed by some stacks)
FORBIDDEN.addSubnet('64:ff9b:1::', 48, 'ipv6'); // local-use NAT64: may translate to any IPv4 address
FORBIDDEN.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
FORBIDDEN.addSubnet('ff00::', 8, 'ipv6'); // multicast

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const bytes = dotted[2]!.split('.').map(Number);
    if (bytes.some((b) => b > 255)) return undefined;
    tail.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
    text = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

const v4Of = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries, if it is one of the forms that reach an IPv4
 * host: mapped `::ffff:a.b.c.d`, translated `::ffff:0:a.b.c.d`, compatible `::a.b.c.d`
 * (not `::` nor `::1`), NAT64 `64:ff9b::a.b.c.d`, and 6to4 `2002:AABB:CCDD::`.
 */
export function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zero = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4Of(g[6]!, g[7]!);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4Of(g[6]!, g[7]!);
  if (zero(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!);
  return undefined;
}

/** The forms an IP address is judged in: itself (brackets off, lower case) and the IPv4 address it carries. */
function formsOf(address: string): { family: 'ipv4' | 'ipv6'; address: string }[] {
  const a = address
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const version = isIP(a);
  if (version === 4) return [{ family: 'ipv4', address: a }];
  if (version !== 6) return [];
  const v4 = embeddedIPv4(a);
  return v4 === undefined
    ? [{ family: 'ipv6', address: a }]
    : [
        { family: 'ipv6', address: a },
        { family: 'ipv4', address: v4 },
      ];
}

/** Addresses nobody's webhook handler lives at: link-local (cloud metadata included), unspecified, multicast, broadcast; in any form. */
export function isForbiddenAddress(address: string): boolean {
  return formsOf(address).some((f) => FORBIDDEN.check(f.address, f.family));
}

/** Whether `address` (an IP address in any form, or a name, with or without the root's trailing dot) is one the sandbox itself listens on. */
function isOwnAddress(address: string, hosts: ReadonlySet<string>): boolean {
  const a = address
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (a === 'localhost' || a.endsWith('.localhost') || hosts.has(a)) return true;
  const forms = formsOf(a);
  if (forms.some((f) => LOOPBACK.check(f.address, f.family))) return true;
  // The sandbox's own addresses, compared in the same canonical forms.
  for (const host of hosts) {
    const own = formsOf(host);
    if (own.length > 0 && forms.some((f) => own.some((o) => o.family === f.family && sameAddress(o.address, f.address, f.family))))
      return true;
  }
  return false;
}

function sameAddress(a: string, b: string, family: 'ipv4' | 'ipv6'): boolean {
  if (family === 'ipv4') return a === b;
  const ga = ipv6Groups(a);
  const gb = ipv6Groups(b);
  return ga !== undefined && gb !== undefined && ga.every((x, i) => x === gb[i]);
}

/** The port a URL reaches: its own, or the scheme's default. */
const portOf = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

/** Why the sandbox may not connect to `address` on `port` (an address resolved or written), or null when it may. */
export function refusedAddress(address: string, port: number, policy: TargetPolicy): string | null {
  if (isForbiddenAddress(address)) return `${address} is a link-local, metadata or otherwise unreachable address`;
  const own = policy.own();
  if (own && port === own.port && isOwnAddress(address, own.hosts)) return 'the sandbox does not send webhooks to itself';
  return null;
}

/** Why `url` may not receive webhooks judged by what is written (no DNS), or null when it may. */
export function refusedTarget(url: string, policy: TargetPolicy, addresses: readonly string[] = []): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'only http and https URLs receive webhooks';
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (policy.allowHosts.length > 0 && !policy.allowHosts.includes(host)) return `host ${host} is not in --webhook-allow-hosts`;
  for (const a of [host, ...addresses]) {
    const refused = refusedAddress(a, portOf(u), policy);
    if (refused !== null) return refused;
  }
  return null;
}

/** Why `url` may not receive a webhook now, after resolving its host name; null when it may. */
export async function refusedDelivery(url: string, policy: TargetPolicy): Promise<string | null> {
  const early = refusedTarget(url, policy);
  if (early !== null) return early;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return null;
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return null; // the delivery itself reports the name that does not resolve
  }
  return refusedTarget(url, policy, addresses);
}

/** Why the sandbox may not connect to `address`:`port` now; handed to the HTTP client (post.ts), which checks it at connect time. */
export type ConnectGuard = (address: string, port: number) => string | null;

/** The connect-time check of `policy`. */
export function connectGuard(policy: TargetPolicy): ConnectGuard {
  return (address, port) => refusedAddress(address, port, policy);
}
