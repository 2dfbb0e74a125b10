/**
 * Which URLs the sandbox may send webhooks to (issue 10): http(s) only; never the sandbox
 * itself (a merchant URL of its own /_sandbox/reset must not wipe it); never a link-local
 * or cloud-metadata address; with `--webhook-allow-hosts`, only the hosts listed. Checked
 * when a target is accepted (the address as written) and again before each delivery (the
 * addresses the name resolves to). Redirects are never followed (dispatcher.ts).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface TargetPolicy {
  /** `--webhook-allow-hosts`, lower case; empty allows any host. */
  allowHosts: readonly string[];
  /** The sandbox's own listening port and the addresses it answers on, when known. */
  own(): { port: number; hosts: ReadonlySet<string> } | undefined;
}

/** Addresses nobody's webhook handler lives at: link-local (cloud metadata included) and unspecified. */
export function isForbiddenAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1] = [Number(v4[1]), Number(v4[2])];
    if (b0 === 169 && b1 === 254) return true; // link-local, 169.254.169.254 metadata
    if (b0 === 0) return true; // "this network", 0.0.0.0
    if (a.endsWith('100.100.100.200')) return true; // Alibaba Cloud metadata
    return false;
  }
  if (a === '::' || a.startsWith('fe8') || a.startsWith('fe9') || a.startsWith('fea') || a.startsWith('feb')) return true; // fe80::/10
  if (a === 'fd00:ec2::254') return true; // AWS metadata over IPv6
  return false;
}

const LOOPBACK = (a: string): boolean => a === 'localhost' || a === '::1' || /^(::ffff:)?127\./.test(a);

/** The port a URL reaches: its own, or the scheme's default. */
const portOf = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

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
  const all = [host, ...addresses.map((a) => a.toLowerCase())];
  const bad = all.find(isForbiddenAddress);
  if (bad !== undefined) return `${bad} is a link-local or metadata address`;
  const own = policy.own();
  if (own && portOf(u) === own.port && all.some((a) => LOOPBACK(a) || own.hosts.has(a))) return 'the sandbox does not send webhooks to itself';
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
