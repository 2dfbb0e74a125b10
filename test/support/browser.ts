/**
 * What the browser tests share: headless Chromium (Debian's, driven by playwright-core), the
 * merchant's server (the tests' one verifying receiver, with the merchant's return pages),
 * and a small client of the /v4 API with the demo credentials.
 */
import { mkdirSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DEMO_ACCOUNTS, type DemoAccountCredentials } from '../../src/core/credentials/demo-credentials.js';
import { ACK, startReceiver, type ReceivedWebhook as Hook } from './receiver.js';

/** Screenshots go here (gitignored), to be looked at. */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export const DIRECT = DEMO_ACCOUNTS.find((a) => a.mode === 'direct')!;
export const CHECKOUT = DEMO_ACCOUNTS.find((a) => a.mode === 'checkout')!;

/** A card and browser_info that direct mode requires; 4111... matches no scenario rule, so the payment waits. */
export const CARD = { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' };
export const BROWSER_INFO = { user_agent: 'e2e', language: 'en-US', javascript_enabled: true };

/** Debian's chromium, headless, with nothing that phones home. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-width screenshot to test-artifacts/<name>.png. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage });
}

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  body: Record<string, unknown>;
  /** The signature header verified against the raw bytes with the published public key. */
  verified: boolean;
}

export interface MerchantServer {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves with the first webhook (already received or still to come) that `match` accepts. */
  waitFor(match: (w: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/**
 * A merchant's server, on the tests' one receiver (`receiver.ts`): `POST /webhooks` verifies
 * and acknowledges (a bad signature is a 400); `POST /flaky` answers 503 the first time each
 * body arrives, then acknowledges; `GET /return` and `GET /cancel` are the pages a customer
 * lands on after the payment page.
 */
export async function startMerchant(): Promise<MerchantServer> {
  const receiver = await startReceiver();
  const seenOnFlaky = new Set<string>();
  receiver.respond = (_n, hook) => {
    if (hook.path === '/flaky' && !seenOnFlaky.has(hook.raw)) {
      seenOnFlaky.add(hook.raw);
      return { status: 503, body: 'maintenance' };
    }
    return hook.verified ? ACK : { status: 400, body: JSON.stringify({ code: '400', message: 'BAD SIGNATURE' }) };
  };
  const asMerchant = (hook: Hook): ReceivedWebhook => ({
    path: new URL(hook.path, 'http://merchant').pathname,
    headers: hook.headers,
    rawBody: Buffer.from(hook.raw, 'utf8'),
    body: hook.body as Record<string, unknown>,
    verified: hook.verified,
  });
  return {
    url: receiver.origin,
    get received() {
      return receiver.received.map(asMerchant);
    },
    waitFor: async (match, timeoutMs = 5000) => asMerchant(await receiver.waitForMatch((hook) => match(asMerchant(hook)), timeoutMs)),
    close: () => receiver.close(),
  };
}

/** A merchant's /v4 client with an account's API key, as the merchant's own code would send it. */
export function merchantApi(baseUrl: string, account: DemoAccountCredentials) {
  const headers = {
    authorization: `Bearer ${account.api_key}`,
    'x-merchant-account-id': account.account_id,
    'content-type': 'application/json',
  };
  const post = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${baseUrl}/v4${path}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    post,
    /** Creates a transaction and returns its record (throws unless 201). */
    async createTransaction(body: Record<string, unknown>): Promise<TransactionRecord> {
      const res = await post(
        '/transactions',
        account.mode === 'direct' ? { payment_method: CARD, browser_info: BROWSER_INFO, ...body } : body,
      );
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as unknown as TransactionRecord;
    },
  };
}

export interface TransactionRecord {
  id: string;
  status: string;
  amount: number;
  currency: string;
  refunded_amount: number;
  payment_url: string | null;
  external_identifier: string | null;
}

/** GET a control API path as JSON. */
export async function control<T = Record<string, unknown>>(
  baseUrl: string,
  path: string,
  init?: { method?: string; body?: unknown },
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}/_sandbox${path}`, {
    method: init?.method ?? 'GET',
    headers: init?.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as T };
}
