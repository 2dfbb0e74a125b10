/**
 * The package's client of a running sandbox's control API (`/_sandbox`), shared by
 * `startSandbox` (a sandbox in this process) and `PaymentSandboxContainer` (a sandbox in a
 * container): one call with the error envelope as `SandboxRequestError`, the demo credentials
 * with ready headers, and the go-live report's query.
 */
import type { AccountCredentials as AccountCredentialsRecord } from './features/accounts/index.js';
import type { GoLiveReport } from './features/go-live/index.js';

/** One merchant account's credentials, as `GET /_sandbox/credentials` lists them, with the headers that use them. */
export type AccountCredentials = AccountCredentialsRecord & {
  /** `Authorization` and `X-MERCHANT-ACCOUNT-ID` headers for the /v4 API with this account. */
  headers: { authorization: string; 'x-merchant-account-id': string };
};

/** The demo accounts and the key webhooks are signed with. */
export interface SandboxCredentials {
  /** The demo account in direct mode. */
  direct: AccountCredentials;
  /** The demo account in checkout mode (transactions get a `payment_url`). */
  checkout: AccountCredentials;
  /** Every account known when the sandbox started. */
  accounts: AccountCredentials[];
  /** PEM of the public key that verifies `rsa` webhook signatures (pass it to `verifyWebhook`). */
  webhookPublicKeyPem: string;
}

/** A control API call that did not answer 2xx; `body` holds the spec's error envelope. */
export class SandboxRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxRequestError';
  }
}

/** What `report()` takes: one account's report, and the scenarios it must have seen. */
export interface ReportOptions {
  accountId?: string;
  /** Scenario names, or `'recommended'`: each one not seen is a `coverage_missing` error. */
  requireCoverage?: string | readonly string[];
}

export type ControlCall = <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<T>;

/** Calls `${origin}/_sandbox<path>` with a JSON body; resolves with the parsed answer, throws `SandboxRequestError` for a non-2xx one. */
export function controlClient(origin: string, adminToken?: string): ControlCall {
  const control = `${origin}/_sandbox`;
  return async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (adminToken !== undefined) headers['x-sandbox-admin-token'] = adminToken;
    const res = await fetch(control + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    if (!res.ok) {
      const message = (parsed as { message?: string } | undefined)?.message ?? text;
      throw new SandboxRequestError(res.status, parsed, `${method} /_sandbox${path}: ${res.status} ${message}`);
    }
    return parsed as T;
  };
}

/** The demo credentials (`GET /_sandbox/credentials`), each account with its /v4 headers. */
export async function readCredentials(call: ControlCall): Promise<SandboxCredentials> {
  const raw = await call<{ accounts: AccountCredentialsRecord[]; webhook_public_key_pem: string }>('GET', '/credentials');
  const accounts = raw.accounts.map((a): AccountCredentials => ({
    ...a,
    headers: { authorization: `Bearer ${a.api_key}`, 'x-merchant-account-id': a.account_id },
  }));
  const byName = (name: string): AccountCredentials => {
    const found = accounts.find((a) => a.name === name);
    if (!found) throw new Error(`the sandbox has no ${name} demo account`);
    return found;
  };
  return { direct: byName('direct'), checkout: byName('checkout'), accounts, webhookPublicKeyPem: raw.webhook_public_key_pem };
}

/** The go-live report (`GET /_sandbox/report`). */
export function readReport(call: ControlCall, options: ReportOptions = {}): Promise<GoLiveReport> {
  const query = new URLSearchParams();
  if (options.accountId !== undefined) query.set('account_id', options.accountId);
  const required = options.requireCoverage;
  if (required !== undefined) query.set('require_coverage', typeof required === 'string' ? required : required.join(','));
  return call('GET', query.size === 0 ? '/report' : `/report?${query.toString()}`);
}
