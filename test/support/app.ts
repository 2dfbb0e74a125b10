/**
 * Shared test support: a sandbox app without a socket, the demo credentials, JWTs signed
 * with node's own crypto, and (from `receiver.ts`) the webhook receiver.
 */
import { createPrivateKey, sign as cryptoSign } from 'node:crypto';
import { createApp, type SandboxApp } from '../../src/app.js';
import type { SandboxRuntime } from '../../src/compose.js';
import type { SandboxOptions } from '../../src/core/config.js';
import { DEMO_ACCOUNTS } from '../../src/core/credentials/demo-credentials.js';

export const DIRECT = DEMO_ACCOUNTS[0]!;
export const CHECKOUT = DEMO_ACCOUNTS[1]!;

/** A sandbox app without its ticker; `runtime.logger` captures what it logs. */
export function testApp(options: Partial<SandboxOptions> = {}, runtime: SandboxRuntime = {}): SandboxApp {
  return createApp({ ticker: false, ...options }, runtime);
}

export interface Creds {
  account_id: string;
  api_key: string;
}

/** Authorization + account headers (and JSON content type). */
export function headers(creds: Creds = DIRECT, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${creds.api_key}`,
    'x-merchant-account-id': creds.account_id,
    'content-type': 'application/json',
    ...extra,
  };
}

/** A valid direct-mode card payment body. */
export function directPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 1050,
    currency: 'USD',
    description: 'Order 1001',
    customer: { email: 'jane@example.com', name: 'Jane Doe' },
    external_identifier: 'order-1001',
    payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
    browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'vitest', user_device: 'desktop' },
    ...overrides,
  };
}

/** An RS256 JWT signed with node's crypto. */
export function jwt(claims: Record<string, unknown>, opts: { kid?: string; privateKeyPem?: string; alg?: string } = {}): string {
  const header = { alg: opts.alg ?? 'RS256', typ: 'JWT', kid: opts.kid ?? DIRECT.jwt_kid };
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const data = `${enc(header)}.${enc(claims)}`;
  const sig = cryptoSign('RSA-SHA256', Buffer.from(data), createPrivateKey(opts.privateKeyPem ?? DIRECT.jwt_private_key_pem));
  return `${data}.${sig.toString('base64url')}`;
}

export { ACK, startReceiver, verifySignature, type ReceivedWebhook, type Receiver } from './receiver.js';

export async function body<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** A cursor page as the API answers it. */
export interface PageBody<T = Record<string, unknown>> {
  items: T[];
  limit: number;
  next_cursor: string | null;
  previous_cursor: string | null;
}

/** The request headers of a bearer token (an API key or a JWT) for the direct demo account. */
export const bearer = (token: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'x-merchant-account-id': DIRECT.account_id,
});

/** Now in whole seconds, as a JWT's `iat` and `exp` are written. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
