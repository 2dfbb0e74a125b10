/**
 * Shared test support: a sandbox app without a socket, the demo credentials, JWTs signed
 * with node's own crypto, and a real webhook receiver on loopback that verifies signatures
 * with `crypto.verify` and the published PEM (never with the sandbox's signing code).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPrivateKey, sign as cryptoSign, verify as cryptoVerify } from 'node:crypto';
import { createApp, type SandboxApp } from '../src/app.js';
import type { SandboxOptions } from '../src/config.js';
import { DEMO_ACCOUNTS, DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../src/domain/demo-credentials.js';

export const DIRECT = DEMO_ACCOUNTS[0]!;
export const CHECKOUT = DEMO_ACCOUNTS[1]!;

export function testApp(options: Partial<SandboxOptions> = {}): SandboxApp {
  return createApp({ ticker: false, ...options });
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
export function jwt(
  claims: Record<string, unknown>,
  opts: { kid?: string; privateKeyPem?: string; alg?: string } = {},
): string {
  const header = { alg: opts.alg ?? 'RS256', typ: 'JWT', kid: opts.kid ?? DIRECT.jwt_kid };
  const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const data = `${enc(header)}.${enc(claims)}`;
  const sig = cryptoSign('RSA-SHA256', Buffer.from(data), createPrivateKey(opts.privateKeyPem ?? DIRECT.jwt_private_key_pem));
  return `${data}.${sig.toString('base64url')}`;
}

export interface ReceivedWebhook {
  raw: string;
  body: unknown;
  headers: IncomingHttpHeaders;
  verified: boolean;
  path: string;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides the answer of each request (default: 200 {"code":"200","message":"SUCCESS"}). */
  respond: (n: number, hook: ReceivedWebhook) => { status: number; body: string; delayMs?: number };
  /** Resolves once `count` webhooks have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export const ACK = { status: 200, body: JSON.stringify({ code: '200', message: 'SUCCESS' }) };

/** Verifies a webhook signature with node's crypto and the published public key. */
export function verifySignature(raw: string, signature: string | undefined, publicKeyPem = DEMO_WEBHOOK_PUBLIC_KEY_PEM): boolean {
  if (!signature) return false;
  return cryptoVerify('sha256', Buffer.from(raw, 'utf8'), publicKeyPem, Buffer.from(signature, 'base64'));
}

/** A merchant webhook receiver on 127.0.0.1. */
export async function startReceiver(publicKeyPem = DEMO_WEBHOOK_PUBLIC_KEY_PEM): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    respond: () => ACK,
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} webhooks, got ${received.length}`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      const hook: ReceivedWebhook = {
        raw,
        body,
        headers: req.headers,
        verified: verifySignature(raw, req.headers.signature as string | undefined, publicKeyPem),
        path: req.url ?? '/',
      };
      received.push(hook);
      const answer = receiver.respond(received.length, hook);
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
      for (const w of waiters.splice(0)) {
        if (received.length >= w.count) w.resolve();
        else waiters.push(w);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}

/** JSON body of a response, typed loosely for assertions. */
export async function body<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
