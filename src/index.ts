/**
 * The package's in-process API (`import { startSandbox } from 'payment-sandbox'`): starts the
 * sandbox in the caller's process on a free loopback port and steers it through the control
 * API over HTTP (`/_sandbox/...`), exactly as a test suite in another process would. It uses
 * only `startServer` and the options schema, none of the sandbox's internals.
 */
import { resolveOptions, type SandboxOptionsInput } from './core/config.js';
import { startServer } from './server.js';
import type { Delivery, SignatureExplanation } from './features/webhooks/index.js';
import type { ApiKeyView, MintedApiKeyView } from './features/accounts/index.js';
import {
  controlClient,
  readCredentials,
  readReport,
  SandboxRequestError,
  type ReportOptions,
  type SandboxCredentials,
} from './control-client.js';
import type { ClockAdvanced } from './features/sandbox/index.js';
import type { ControlTransaction, Refund as RefundRecord } from './features/transactions/index.js';
import type { Scope } from './core/http/auth.js';

export { verifyWebhook, type VerifyWebhookInput, type WebhookRequestHeaders } from './verify-webhook.js';
export type { SandboxOptionsInput } from './core/config.js';
export {
  checkWebhooks,
  type CheckWebhooksOptions,
  type WebhookCheckOutcome,
  type WebhookCheckReport,
  type WebhookCheckResult,
} from './features/check-webhooks/index.js';
export {
  forwardWebhooks,
  ForwardWebhooksError,
  type ForwardedDelivery,
  type ForwardWebhooksOptions,
  type WebhookForwarder,
} from './features/forwarder/index.js';
export { runConformance, conformancePassed } from './features/conformance/index.js';
export { fixturesFromRecording, parseRecording, ShadowStartError } from './features/shadow/index.js';
export type { RecordingLine, RunningShadow, ShadowDifference, ShadowOptions, ShadowReport } from './features/shadow/index.js';
import { startShadow as startShadowProxy, type RunningShadow, type ShadowOptions } from './features/shadow/index.js';
import { startInProcessSandbox } from './in-process-sandbox.js';

/**
 * Starts the shadow proxy in this process (as `payment-sandbox shadow`, on a free port unless
 * `port` says otherwise): the app calls `${url}/v4` instead of `upstream`.
 * @throws ShadowStartError when the upstream cannot be reached or refuses the credentials.
 */
export function startShadow(options: ShadowOptions): Promise<RunningShadow> {
  return startShadowProxy(options, startInProcessSandbox);
}
export { ConformanceConnectionError, ConformanceCredentialsError } from './features/conformance/index.js';
export type {
  CheckFailure,
  CheckOutcome,
  CheckResult,
  ConformanceOptions,
  ConformanceReport,
  ConformanceTarget,
  Difference as ConformanceDifference,
  Exchange as ConformanceExchange,
} from './features/conformance/index.js';
export type {
  CoverageEntry,
  CoverageScenario,
  GoLiveEvidence,
  GoLiveFinding,
  GoLiveFindingCode,
  GoLiveReport,
  GoLiveSeverity,
} from './features/go-live/index.js';
import type { GoLiveReport } from './features/go-live/index.js';

/** The options of `startSandbox`: the CLI's options (flags in camelCase); `port` defaults to 0 (a free port). */
export type StartSandboxOptions = SandboxOptionsInput;

export { SandboxRequestError, type AccountCredentials, type SandboxCredentials, type ReportOptions } from './control-client.js';

/**
 * A scope of the /v4 API (README "Restricted keys"): what a restricted key (or a JWT) may do.
 * An account's own API key has them all.
 */
export type ApiKeyScope = Scope;

/** A restricted API key as listed: the secret is never shown again after minting. */
export type ApiKey = ApiKeyView;

/** A key just minted: `secret` is its bearer token, shown this once. */
export type MintedApiKey = MintedApiKeyView;

/** Restricted keys of the sandbox's accounts (`/_sandbox/accounts/{id}/api-keys`). */
export interface ApiKeys {
  /**
   * Mints an `sk_test_` key of `accountId` limited to `scopes`; an operation outside them is a
   * 403 `forbidden` naming the missing scope. The answer holds the secret, shown this once.
   */
  create(accountId: string, options: { scopes: ApiKeyScope[]; name?: string }): Promise<MintedApiKey>;
  /** The account's keys, oldest first, secrets redacted. */
  list(accountId: string): Promise<ApiKey[]>;
  /** Revokes a key: its secret is a 401 from now on. Resolves with the revoked key. */
  revoke(accountId: string, keyId: string): Promise<ApiKey>;
}

/** A transaction as the control API returns it: the /v4 record, its refunds and the actions legal now. */
export type Transaction = ControlTransaction;

/** A refund as the control API returns it. */
export type Refund = RefundRecord;

/**
 * One attempt at sending a webhook, and a webhook delivery with every attempt
 * (`GET /_sandbox/deliveries`): the control API's own response schemas, so the package's types
 * are what the server sends (`fault`, `state` and `reference` included).
 */
export type { Delivery, DeliveryAttempt } from './features/webhooks/index.js';

/** Why a signature check failed (`POST /_sandbox/signatures/explain`): one cause, the first differing byte, the fix. */
export type { SignatureExplanation } from './features/webhooks/index.js';

/** What `explainSignature` takes: what the handler verified. */
export interface ExplainSignatureInput {
  /** The body text the handler verified, or its bytes. */
  body: string | Uint8Array;
  /** The signature header value the handler verified. */
  signature: string;
  deliveryId?: string;
  /** The PEM public key the handler verified with. */
  publicKey?: string;
}

/** The sandbox clock after an advance. */
export type ClockAdvance = ClockAdvanced;

/** One account's own clock, as `RunningSandbox.account(id)` gives it. */
export interface AccountClockHandle {
  /**
   * Moves this account's clock forward by `seconds` (every other account's stays), running its
   * due work; resolves once the webhooks it queued have had their attempt, or at once with
   * `{ waitForWebhooks: false }`.
   */
  advanceClock(seconds: number, options?: { waitForWebhooks?: boolean }): Promise<ClockAdvance>;
  /** This account's clock: `now`, and `offset_seconds` ahead of real time. */
  clock(): Promise<{ now: string; offset_seconds: number }>;
}

/** A running in-process sandbox. */
export interface RunningSandbox {
  /** Origin of the sandbox, e.g. http://127.0.0.1:41234 (panel at `/`, control API at `/_sandbox`). */
  url: string;
  /** Base of the merchant API: `${url}/v4`. */
  apiUrl: string;
  credentials: SandboxCredentials;
  /** Outcome SUCCEEDED now, and its payment webhook. */
  settle(transactionId: string): Promise<Transaction>;
  /** Outcome FAILED now, and its payment webhook. */
  fail(transactionId: string): Promise<Transaction>;
  /** Refunds `amount` (minor units; default: the remainder), and its refund webhook. */
  refund(transactionId: string, amount?: number): Promise<Refund>;
  /**
   * Moves the sandbox clock forward, running all that falls due; resolves once the webhooks it
   * queued have had their attempt, or at once with `{ waitForWebhooks: false }`.
   */
  advanceClock(seconds: number, options?: { waitForWebhooks?: boolean }): Promise<ClockAdvance>;
  /**
   * One account's own clock (`/_sandbox/accounts/{id}/clock`): `advanceClock` moves that
   * account's clock alone, running its due work alone (renewals, retries of its webhooks, its
   * link and idempotency-key expiries, its scenario steps); `clock` reads it. One account per
   * test worker gives each worker its own time on one sandbox.
   */
  account(accountId: string): AccountClockHandle;
  /** Every webhook delivery, newest first. */
  deliveries(): Promise<Delivery[]>;
  /**
   * Resolves with the first delivery that matches `predicate` (polling the delivery log).
   * @throws Error after `timeoutMs` (default 10 s) without one.
   */
  waitForDelivery(predicate: (delivery: Delivery) => boolean, timeoutMs?: number): Promise<Delivery>;
  /**
   * Sends `body` (a JSON value, sent as its JSON text, or a string, sent byte for byte) as a
   * webhook of `accountId` to `url` (default `notificationUrl`), signed as every delivery is, with
   * the same retries, log, faults and target guard; resolves with the queued delivery.
   * @throws SandboxRequestError 400 without a URL or for a refused one, 404 for an unknown account.
   */
  sendWebhook(request: { accountId: string; url?: string; body: unknown }): Promise<Delivery>;
  /** Says why a handler's signature check of a delivery failed (`POST /_sandbox/signatures/explain`). */
  explainSignature(input: ExplainSignatureInput): Promise<SignatureExplanation>;
  /** Restricted API keys: mint with scopes, list, revoke. */
  apiKeys: ApiKeys;
  /** The objects the `fixtures` option created at start, by fixture name (wire format: `fixtures.tx1.id`). */
  fixtures: Record<string, unknown>;
  /**
   * Applies a fixtures document now (`POST /_sandbox/fixtures`); resolves with each name's object.
   * @throws SandboxRequestError (400, 404, 409) for a bad document: nothing was created.
   */
  loadFixtures(document: unknown): Promise<Record<string, unknown>>;
  /** A consistent copy of the whole state as an SQLite file (`GET /_sandbox/snapshot`): start another sandbox from it with `restore`. */
  snapshot(): Promise<Buffer>;
  /**
   * The go-live report (`GET /_sandbox/report`): findings with their evidence and fix, and the
   * coverage of the scenarios; for one account with `accountId`. With `requireCoverage`
   * (scenario names, or `'recommended'` for the documented set), each listed scenario not seen
   * is a `coverage_missing` finding (error).
   * @throws SandboxRequestError (400) for an unknown scenario name.
   */
  report(options?: ReportOptions): Promise<GoLiveReport>;
  /** Empties all data, keeps the accounts and credentials; `rewindClock` also sends the sandbox clock back to real time. */
  reset(options?: { rewindClock?: boolean }): Promise<void>;
  /** Finishes in-flight requests and deliveries, closes the database. */
  stop(): Promise<void>;
}

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * Starts the sandbox in this process on a free port of 127.0.0.1 (unless `port`/`host` say
 * otherwise), with the same options as the CLI.
 * @throws OptionsError for a bad option value, or the listen error (e.g. EADDRINUSE).
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const running = await startServer(resolveOptions({ port: 0, ...options }));
  const control = `${running.url}/_sandbox`;
  const call = controlClient(running.url);

  let credentials: SandboxCredentials;
  try {
    credentials = await readCredentials(call);
  } catch (err) {
    await running.stop();
    throw err;
  }
  const id = (segment: string): string => encodeURIComponent(segment);

  const sandbox: RunningSandbox = {
    url: running.url,
    apiUrl: `${running.url}/v4`,
    credentials,
    settle: (transactionId) => call('POST', `/transactions/${id(transactionId)}/settle`),
    fail: (transactionId) => call('POST', `/transactions/${id(transactionId)}/fail`),
    refund: (transactionId, amount) => call('POST', `/transactions/${id(transactionId)}/refund`, amount === undefined ? {} : { amount }),
    advanceClock: (seconds, options) => call('POST', '/clock/advance', { seconds, wait_for_webhooks: options?.waitForWebhooks ?? true }),
    account: (accountId) => ({
      advanceClock: (seconds, options) =>
        call('POST', `/accounts/${id(accountId)}/clock/advance`, { seconds, wait_for_webhooks: options?.waitForWebhooks ?? true }),
      clock: () => call('GET', `/accounts/${id(accountId)}/clock`),
    }),
    async deliveries() {
      const all: Delivery[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const page: Page<Delivery> = await call<Page<Delivery>>('GET', `/deliveries?limit=100${query}`);
        all.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor !== null);
      return all;
    },
    async waitForDelivery(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await sandbox.deliveries()).find(predicate);
        if (found) return found;
        if (Date.now() >= deadline) throw new Error(`no matching webhook delivery within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    sendWebhook: ({ accountId, url, body }) =>
      call('POST', '/webhooks/send', url === undefined ? { account_id: accountId, body } : { account_id: accountId, url, body }),
    explainSignature: ({ body, signature, deliveryId, publicKey }) =>
      call('POST', '/signatures/explain', {
        ...(typeof body === 'string' ? { body } : { body_base64: Buffer.from(body).toString('base64') }),
        signature,
        ...(deliveryId === undefined ? {} : { delivery_id: deliveryId }),
        ...(publicKey === undefined ? {} : { public_key: publicKey }),
      }),
    apiKeys: {
      create: (accountId, { scopes, name }) =>
        call('POST', `/accounts/${id(accountId)}/api-keys`, name === undefined ? { scopes } : { scopes, name }),
      list: async (accountId) => (await call<{ items: ApiKey[] }>('GET', `/accounts/${id(accountId)}/api-keys`)).items,
      revoke: (accountId, keyId) => call('DELETE', `/accounts/${id(accountId)}/api-keys/${id(keyId)}`),
    },
    fixtures: running.fixtures,
    loadFixtures: (document) => call('POST', '/fixtures', document),
    async snapshot() {
      const res = await fetch(`${control}/snapshot`);
      if (!res.ok)
        throw new SandboxRequestError(res.status, await res.json().catch(() => undefined), `GET /_sandbox/snapshot: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
    report: (options) => readReport(call, options),
    async reset(options = {}) {
      await call('POST', '/reset', options.rewindClock ? { rewind_clock: true } : undefined);
    },
    stop: () => running.stop(),
  };
  return sandbox;
}
