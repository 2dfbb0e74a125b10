/**
 * The sandbox's options: one schema for the command-line flags and the
 * `PAYMENT_SANDBOX_<NAME>` environment variables (flags win). `createApp` and the CLI both
 * take a `SandboxOptions`; tests build one with `resolveOptions({...})`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { networkInterfaces, hostname as machineName } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isCurrency } from './domain/money.js';
import { SETTLEMENT_CURRENCIES, isSettlementCurrency } from './domain/settlement.js';
import { isTimeZone } from './webhooks/time.js';
import { parseLatency } from './http/load-rehearsal.js';

let packageRoot: string | undefined;

/**
 * A path inside the installed package (where package.json, public/, scenarios/ and dist/
 * are): the nearest folder above this module with the package's package.json. Found by
 * walking up, so it is the same from src/ (tsx, vitest), dist/ and the bundle in dist/bundle/.
 */
export function packagePath(...segments: string[]): string {
  if (packageRoot === undefined) {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (;;) {
      const file = join(dir, 'package.json');
      if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'payment-sandbox') break;
      const up = dirname(dir);
      if (up === dir) throw new Error('payment-sandbox: cannot find the package folder (package.json)');
      dir = up;
    }
    packageRoot = dir;
  }
  return join(packageRoot, ...segments);
}

let version: string | undefined;

/** The package's version (its package.json's), read once. */
export function packageVersion(): string {
  if (version === undefined) {
    const pkg: unknown = JSON.parse(readFileSync(packagePath('package.json'), 'utf8'));
    version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? String(pkg.version) : '0.0.0';
  }
  return version;
}

/** The default scenario shipped in the package (`scenarios/default.json`), absolute path. */
export function defaultScenarioPath(): string {
  return packagePath('scenarios', 'default.json');
}

/** Default restricted wallet channel: billing_details and cart_items are required with it. */
export const DEFAULT_RESTRICTED_CHANNEL_CODE = 'RESTRICTED_WALLET';

/** The largest request body the sandbox accepts by default, in bytes (`--body-limit`). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const port = z.coerce
  .number({ message: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be 0 to 65535')
  .max(65535, 'must be 0 to 65535');

/** A switch: true/false from a flag, or `1`/`true`/`0`/`false` from a variable. */
const flag = z.preprocess(
  (v) =>
    typeof v === 'string' ? (({ '1': true, true: true, '0': false, false: false } as Record<string, boolean>)[v.toLowerCase()] ?? v) : v,
  z.boolean({ message: 'must be true or false (1 or 0)' }),
);

const url = z.url({ message: 'must be an http(s) URL', protocol: /^https?$/ });

/** A list: an array (repeated flag, tests) or one comma-separated string (flag or variable). */
const list = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x])) : v),
  z.array(z.string().transform((s) => s.trim().toLowerCase())).transform((a) => a.filter(Boolean)),
);

/** A whole number of at least `min`, from a flag, a variable or code. */
const count = (min: number) =>
  z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(min, `must be ${min} or more`);

export const optionsSchema = z
  .object({
    port: port.default(4010),
    host: z.string().min(1).default('127.0.0.1'),
    db: z.string().min(1).default(':memory:'),
    notificationUrl: url.optional(),
    /** Origin that payment links use instead of the bind address (e.g. behind a port mapping). */
    publicUrl: url.transform((v) => v.replace(/\/+$/, '')).optional(),
    seed: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').default(4010),
    scenario: z.array(z.string().min(1)).default([]),
    /** Fixture files (paths) applied in order once listening; `startSandbox` also takes fixture documents (objects). */
    fixtures: z
      .array(
        z.union([z.string().min(1), z.record(z.string(), z.unknown())], { message: 'must be fixture file paths (or fixture documents)' }),
      )
      .default([]),
    /** A snapshot (`GET /_sandbox/snapshot`) to start from: in memory, or as the --db file. */
    restore: z.string().min(1).optional(),
    /** Time added to each /v4 call: `MS`, or a log-normal distribution through `p50=MS,p99=MS`. */
    latency: z
      .union([z.number(), z.string(), z.object({ p50Ms: z.number(), p99Ms: z.number() })], {
        message: 'must be milliseconds or p50=MS,p99=MS',
      })
      .transform((value, ctx) => {
        try {
          return parseLatency(typeof value === 'object' ? `p50=${value.p50Ms},p99=${value.p99Ms}` : value);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      })
      .default({ p50Ms: 0, p99Ms: 0 }),
    /** /v4 requests per second per account (a token bucket with a burst of as many); 0: no limit. */
    rateLimit: count(0).max(100_000, 'must be 100000 or less').default(0),
    webhookTimezone: z
      .string()
      .refine((v) => v === 'UTC' || isTimeZone(v), { message: 'must be an IANA time-zone name such as UTC or Asia/Shanghai' })
      .default('UTC'),
    webhookSigning: z.enum(['rsa', 'hmac'], { message: 'must be rsa or hmac' }).default('rsa'),
    webhookSecret: z.string().min(1).optional(),
    /** `spec`: the spec's webhook bodies (what production sends); `event`: the overview handler's event shape. */
    webhookFormat: z.enum(['spec', 'event'], { message: 'must be spec or event' }).default('spec'),
    /** After the first acknowledged delivery to a URL, send it once a copy with a broken signature (per account: PATCH /_sandbox/accounts/{id}). */
    webhookCanary: flag.default(false),
    /** ISO 4217 code payments settle in at the fixed sandbox rates; absent: each payment's own currency. */
    settlementCurrency: z
      .string()
      .refine((v) => isCurrency(v) && isSettlementCurrency(v), {
        message: `must be a currency with a sandbox rate: ${SETTLEMENT_CURRENCIES.join(', ')}`,
      })
      .optional(),
    restrictedChannelCode: z.string().min(1).default(DEFAULT_RESTRICTED_CHANNEL_CODE),
    /** How long a merchant has to answer one webhook attempt. */
    deliveryTimeoutMs: z.number().int().min(1).default(10_000),
    /** Largest accepted request body, in bytes. */
    bodyLimit: z.coerce.number().int().min(1024).default(DEFAULT_BODY_LIMIT),
    /** Whether the real-time ticker runs due work on its own (tests may switch it off). */
    ticker: z.boolean().default(true),
    /** Print one line per API request. */
    log: flag.default(false),
    /** `text` for a person, `json` (one JSON object a line) for CI logs. */
    logFormat: z.enum(['text', 'json'], { message: 'must be text or json' }).default('text'),
    /** Print only the ready line, warnings and errors (no delivery or request lines). */
    quiet: flag.default(false),
    /** A file the chosen port is written to once listening (useful with --port 0). */
    portFile: z.string().min(1).optional(),
    /** Host names (besides the addresses served) the control API and panel answer to; `*` for any. */
    allowedHosts: list.default([]),
    /** Protects /_sandbox, the panel and the credentials (`Authorization: Bearer <token>` or `X-Sandbox-Admin-Token`). */
    adminToken: z.string().min(8, 'must be at least 8 characters').optional(),
    /** When set, webhooks go only to these hosts (names or addresses). */
    webhookAllowHosts: list.default([]),
    /** The request log keeps this many newest entries. */
    requestLogLimit: count(1).default(10_000),
    /** The delivery log keeps this many newest finished deliveries (pending ones are never dropped). */
    deliveryLogLimit: count(1).default(10_000),
    /** Open event streams (panels) at once. */
    maxEventStreams: count(1).default(32),
    /** Merchant accounts per sandbox, the demo accounts included. */
    maxAccounts: count(2).default(100),
    /** Largest request head (request line and headers), in bytes; larger is a 431. */
    maxHeaderSize: count(1024).default(16 * 1024),
    /** Account key pairs made ahead of time once listening (0: each made when an account is created). */
    keyPool: count(0).max(1000, 'must be 1000 or less').default(4),
  })
  .superRefine((o, ctx) => {
    if (o.webhookSigning === 'hmac' && !o.webhookSecret) {
      ctx.addIssue({ code: 'custom', path: ['webhookSecret'], message: 'is required with --webhook-signing hmac' });
    }
  });

export type SandboxOptions = z.output<typeof optionsSchema>;
export type SandboxOptionsInput = z.input<typeof optionsSchema>;

/** Names of the options that can come from `PAYMENT_SANDBOX_<NAME>` variables. */
export const ENV_OPTIONS: ReadonlyArray<keyof SandboxOptionsInput> = [
  'port',
  'host',
  'db',
  'notificationUrl',
  'publicUrl',
  'seed',
  'scenario',
  'fixtures',
  'restore',
  'latency',
  'rateLimit',
  'webhookTimezone',
  'webhookSigning',
  'webhookSecret',
  'webhookFormat',
  'webhookCanary',
  'settlementCurrency',
  'restrictedChannelCode',
  'bodyLimit',
  'log',
  'logFormat',
  'quiet',
  'portFile',
  'allowedHosts',
  'adminToken',
  'webhookAllowHosts',
  'requestLogLimit',
  'deliveryLogLimit',
  'maxEventStreams',
  'maxAccounts',
  'maxHeaderSize',
  'keyPool',
];

/** `notificationUrl` -> `PAYMENT_SANDBOX_NOTIFICATION_URL`. */
export function envName(option: string): string {
  return 'PAYMENT_SANDBOX_' + option.replace(/[A-Z]/g, (m) => '_' + m).toUpperCase();
}

/** Reads the option values present in an environment (a `scenario` or `fixtures` variable may list files separated by commas). */
export function optionsFromEnv(env: NodeJS.ProcessEnv): Partial<Record<keyof SandboxOptionsInput, string | string[]>> {
  const out: Partial<Record<keyof SandboxOptionsInput, string | string[]>> = {};
  for (const name of ENV_OPTIONS) {
    const value = env[envName(name)];
    // An empty admin token (`${TOKEN}` unset in a compose file) is kept, and refused like a
    // short one: it must never mean "no token" and leave the control API open.
    if (value === undefined || (value === '' && name !== 'adminToken')) continue;
    out[name] =
      name === 'scenario' || name === 'fixtures'
        ? value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : value;
  }
  return out;
}

/** Thrown for a bad option value; its message is one line naming the flag. */
export class OptionsError extends Error {}

const flagName = (option: string): string => '--' + option.replace(/[A-Z]/g, (m) => '-' + m.toLowerCase());

/** Options whose values are never echoed in an error message. */
const SECRET_OPTIONS: ReadonlySet<string> = new Set(['webhookSecret', 'adminToken']);

/**
 * Validates and fills defaults. Throws `OptionsError` with a one-line message naming the
 * flag, or the environment variable when the bad value came from one (`fromEnv`).
 */
export function resolveOptions(input: Record<string, unknown> = {}, fromEnv: ReadonlySet<string> = new Set()): SandboxOptions {
  const result = optionsSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'options');
    const shown = input[name];
    const value = shown === undefined ? '' : SECRET_OPTIONS.has(name) ? ' (value hidden)' : ` "${String(shown)}"`;
    const where = fromEnv.has(name) ? `${envName(name)}${value} (the variable for ${flagName(name)})` : `${flagName(name)}${value}`;
    throw new OptionsError(`invalid ${where}: ${issue.message}`);
  }
  return result.data;
}

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** A host name without brackets or port, in lower case: `[::1]:4010` -> `::1`. */
export function bareHost(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const colons = h.split(':').length - 1;
  return colons === 1 ? h.slice(0, h.indexOf(':')) : h;
}

/** True when `host` is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  const h = bareHost(host);
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
}

/** The host names the sandbox answers to: loopback, the listening address (every interface for 0.0.0.0), `--allowed-hosts`. */
export function servedHosts(options: Pick<SandboxOptions, 'host' | 'allowedHosts'>): Set<string> {
  const hosts = new Set<string>([...LOOPBACK_NAMES, ...options.allowedHosts.map(bareHost)]);
  const listen = bareHost(options.host);
  // The listening address itself is served too (a client may use the URL the banner prints).
  hosts.add(listen);
  if (WILDCARD_HOSTS.has(listen)) {
    for (const addresses of Object.values(networkInterfaces())) for (const a of addresses ?? []) hosts.add(a.address.toLowerCase());
    hosts.add(machineName().toLowerCase());
  }
  return hosts;
}
