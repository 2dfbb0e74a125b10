/**
 * `checkWebhooks(url, options)`: the battery that tells a merchant whether their webhook
 * handler is production-ready. It sends the handler deliveries built and signed
 * exactly as the sandbox builds and signs them (the transactions feature's webhook bodies,
 * src/core/webhooks/signing.ts for the signature and headers) and judges each answer against
 * the documented Webhooks section: delivered means 2xx with `{"code":"200","message":"SUCCESS"}`.
 * This module owns the cases, their verdicts and the typed report; the command line that
 * prints it is src/features/check-webhooks/command.ts.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { DEMO_WEBHOOK_PRIVATE_KEY_PEM } from '../../core/credentials/demo-credentials.js';
import { isAcknowledgement } from '../../core/webhooks/acknowledgement.js';
import { paymentWebhookBody, refundWebhookBody, type PaymentWebhookStatus } from '../transactions/index.js';
import { MAX_READ_RESPONSE, createPoster, type WebhookPoster } from '../../core/webhooks/post.js';
import { createSigner, webhookHeaders, type WebhookSigner, type WebhookSigning } from '../../core/webhooks/signing.js';
import type { ConnectGuard } from '../../core/webhooks/targets.js';

/** The sandbox's delivery timeout. */
export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

/** The cases, in the order they run. */
export const WEBHOOK_CHECK_IDS = [
  'payment_succeeded',
  'payment_failed',
  'refund',
  'tampered_body',
  'wrong_key',
  'missing_signature',
  'raw_body',
  'duplicate_delivery',
  'refund_before_payment',
  'unknown_field',
  'unknown_status',
  'intermediate_status',
  'large_body',
  'time_limit',
] as const;
export type WebhookCheckId = (typeof WEBHOOK_CHECK_IDS)[number];

/** One request of the battery and the handler's answer to it. */
export interface WebhookExchange {
  /** What was sent, e.g. "SUCCEEDED payment webhook". */
  label: string;
  /** HTTP status of the answer, null when there was none (refused, reset, timed out). */
  status: number | null;
  /** The answer's body (first 4 KiB), null when there was none. */
  body: string | null;
  /** Why there was no answer, null when there was one. */
  error: string | null;
  /** Whether the answer is an acknowledgement (2xx with {"code":"200","message":"SUCCESS"}). */
  acknowledged: boolean;
  durationMs: number;
}

/** What the merchant's test build said its system believes about one order, after a case. */
export interface StateReading {
  /** The merchant_transaction_id asked about. */
  order: string;
  /** `GET <state_url>/<order>`. */
  url: string;
  /** HTTP status of the answer, null when there was none. */
  status: number | null;
  /** The answer as read (`{"payment_status", "refunded_amount"?}`), or its text when it is not JSON. */
  body: unknown;
  /** Why there was no usable answer, null when there was one. */
  error: string | null;
}

/**
 * How a case ended: `passed`; `failed`; `needs_orders` when the handler answered as it must but
 * its state URL does not know the order the case used (404), an order the battery made up
 * because `orders` named none left for it: neither a pass nor a failure.
 */
export type WebhookCheckOutcome = 'passed' | 'failed' | 'needs_orders';

/** The verdict on one case. */
export interface WebhookCheckResult {
  id: WebhookCheckId;
  /** What a production-ready handler does, in one line. */
  title: string;
  /** True only when the case passed (false when it failed or needs `orders`). */
  passed: boolean;
  outcome: WebhookCheckOutcome;
  /** Why it passed, failed or needs `orders`, in one line: which of the answer and the state failed. */
  reason: string;
  /** Whether the handler answered as it must. */
  answerPassed: boolean;
  /**
   * With a state URL: whether the handler's state was right after the case; null without one,
   * for a case with no order, or when the case needs `orders`.
   */
  statePassed: boolean | null;
  /** The merchant_transaction_id the case used when it came from `orders`, else null. */
  order: string | null;
  exchanges: WebhookExchange[];
  /** With a state URL: what the state showed after the case. */
  state: StateReading[];
}

/** What `checkWebhooks` returns (and `check-webhooks --json` prints). */
export interface WebhookCheckReport {
  url: string;
  signing: WebhookSigning['mode'];
  timeZone: string;
  timeoutMs: number;
  /** True when no case failed: every case passed or needs `orders` (see `needsOrders`). */
  passed: boolean;
  /** The cases that need `orders` (the state URL did not know the order they made up); empty when none. */
  needsOrders: WebhookCheckId[];
  /** The orders named in `orders`, in the order the cases used them. */
  orders: string[];
  startedAt: string;
  /** The state URL the handler's orders were read from, null without one. */
  stateUrl: string | null;
  checks: WebhookCheckResult[];
}

export interface CheckWebhooksOptions {
  /** How deliveries are signed (default: rsa with the published demo webhook key). */
  signing?: WebhookSigning;
  /** IANA zone of the `timestamp` header and the body's times (default UTC). */
  timeZone?: string;
  /** How long the handler has to answer one delivery (default 10 s, the sandbox's). */
  timeoutMs?: number;
  /** Currency of the generated payments and refunds (default USD). */
  currency?: string;
  /**
   * Checked against every address the battery connects to (the sandbox's webhook target
   * guard when the control API runs it); a refused address gets no request.
   */
  guard?: ConnectGuard;
  /**
   * The merchant's test build's state URL: after each case the battery reads
   * `GET <stateUrl>/<merchant_transaction_id>`, `{"payment_status": "SUCCEEDED" | "FAILED" | null,
   * "refunded_amount"?: n}`, and requires the state a production-ready handler leaves.
   */
  stateUrl?: string;
  /**
   * Pending orders the merchant's shop created itself (their `external_identifier`s), for a shop
   * that ignores webhooks about orders it does not know. Each case that requires an outcome to be
   * applied uses the next one as its `merchant_transaction_id` (`ORDERS_USED` of them); without
   * one left, such a case makes an order up, and a 404 for it from the state URL makes the case
   * `needs_orders` instead of failed.
   */
  orders?: string[];
}

/** How many orders from `orders` a run uses at most: one per case that requires an outcome applied. */
export const ORDERS_USED = 9;

const MAX_KEPT_ANSWER = 4096;

/** Where a merchant whose handler refused a well-signed delivery learns why. */
export const EXPLAIN_POINTER =
  'the handler refused a well-signed delivery: ask the sandbox why with POST /_sandbox/signatures/explain (the body and signature it verified), see /docs/webhooks#why-a-signature-check-fails';

/** An order as the merchant's state URL shows it. */
interface OrderState {
  payment_status: string | null;
  refunded_amount: number;
}

/** What a case requires of one order's state: a failure in words, or null. */
interface StateExpectation {
  order: string;
  /** What the case did to the order, e.g. "a forged delivery". */
  after: string;
  /** The failure for `state` (what it must have been), or null when it is right. */
  check(state: OrderState): string | null;
  /**
   * What a 404 from the state URL (the shop does not know the order) means: `nothing_applied`
   * for a case that requires nothing applied (that is right); `needs_orders` for a case that
   * requires an outcome applied to an order the battery made up; `unknown_supplied` for one named
   * in `orders` (a failure).
   */
  unknown: 'nothing_applied' | 'needs_orders' | 'unknown_supplied';
}

interface Delivery {
  label: string;
  raw: string;
  headers: Record<string, string>;
}

/** A payment the battery sends webhooks about; `supplied` when its merchant id came from `orders`. */
interface Payment {
  id: string;
  merchantId: string;
  supplied: boolean;
}

/** The amount of every refund the battery sends (minor units). */
const REFUND_AMOUNT = 500;

/** Builds and sends the deliveries of one run; ids are unique per run so runs never collide. */
class Battery {
  private readonly run = randomUUID().slice(0, 8);
  private counter = 0;
  readonly exchanges: WebhookExchange[] = [];

  private readonly orders: string[];
  /** The orders from `orders` the cases used, in order. */
  readonly used: string[] = [];

  constructor(
    private readonly poster: WebhookPoster,
    private readonly url: string,
    private readonly sign: WebhookSigner,
    readonly timeZone: string,
    readonly timeoutMs: number,
    private readonly currency: string,
    orders: readonly string[],
  ) {
    this.orders = [...orders];
  }

  /** A fresh payment reference: sandbox id and a merchant id the battery makes up. */
  payment(): Payment {
    this.counter += 1;
    return { id: randomUUID(), merchantId: `check-${this.run}-order-${this.counter}`, supplied: false };
  }

  /**
   * A payment of an order the shop must know, for a case that requires an outcome applied: the
   * next of `orders`, or, with none left, one made up (its case then may need `orders`).
   */
  knownOrder(): Payment {
    const supplied = this.orders.shift();
    if (supplied === undefined) return this.payment();
    this.used.push(supplied);
    return { id: randomUUID(), merchantId: supplied, supplied: true };
  }

  /**
   * A payment webhook of `p` with `status`, signed by `signer`; `change` edits the body before
   * it is written and signed (a field the spec does not list, a status it does not list).
   */
  paymentDelivery(
    p: { id: string; merchantId: string },
    status: PaymentWebhookStatus,
    signer: WebhookSigner = this.sign,
    change?: (body: Record<string, unknown> & { payment_data: Record<string, unknown> }) => string,
    at: Date = new Date(),
  ): Delivery {
    const body = paymentWebhookBody({
      llTransactionId: p.id,
      merchantTransactionId: p.merchantId,
      amount: 1050,
      currency: this.currency,
      status,
      at,
      timeZone: this.timeZone,
    });
    const raw = change
      ? change(body as unknown as Record<string, unknown> & { payment_data: Record<string, unknown> })
      : JSON.stringify(body);
    return { label: `${status} payment webhook for ${p.merchantId}`, raw, headers: webhookHeaders(raw, at, this.timeZone, signer) };
  }

  refundDelivery(
    p: { merchantId: string },
    refundId: string = randomUUID(),
    change?: (body: Record<string, unknown> & { refund_data: Record<string, unknown> }) => string,
  ): Delivery {
    const at = new Date();
    const body = refundWebhookBody({
      llTransactionId: refundId,
      merchantTransactionId: refundId,
      originalTransactionId: p.merchantId,
      amount: REFUND_AMOUNT,
      currency: this.currency,
      reason: 'check-webhooks',
      at,
      timeZone: this.timeZone,
    });
    const raw = change
      ? change(body as unknown as Record<string, unknown> & { refund_data: Record<string, unknown> })
      : JSON.stringify(body);
    return { label: `refund webhook ${refundId} of ${p.merchantId}`, raw, headers: webhookHeaders(raw, at, this.timeZone, this.sign) };
  }

  /** The same delivery sent again as the sandbox retries it: same body and signature, fresh timestamp. */
  again(d: Delivery): Delivery {
    const signature = d.headers.signature;
    const headers = signature === undefined ? { ...d.headers } : webhookHeaders(d.raw, new Date(), this.timeZone, () => signature);
    return { label: `${d.label} (again)`, raw: d.raw, headers };
  }

  /** Reads a page of the merchant's test build (its state URL), under the same guard and limits as the deliveries. */
  get(url: string) {
    return this.poster.post(url, { accept: 'application/json' }, '', 'GET');
  }

  async send(d: Delivery): Promise<WebhookExchange> {
    const started = performance.now();
    let exchange: WebhookExchange;
    try {
      // Redirects are not followed; the answer is read up to 1 MiB, as the sandbox's deliveries read it (post.ts).
      const { status, text, whole } = await this.poster.post(this.url, d.headers, d.raw);
      exchange = whole
        ? {
            label: d.label,
            status,
            body: text.slice(0, MAX_KEPT_ANSWER),
            error: null,
            acknowledged: isAcknowledgement(status, text),
            durationMs: 0,
          }
        : {
            label: d.label,
            status,
            body: text.slice(0, MAX_KEPT_ANSWER),
            error: `answer larger than ${MAX_READ_RESPONSE} bytes (not read further)`,
            acknowledged: false,
            durationMs: 0,
          };
    } catch (err) {
      exchange = {
        label: d.label,
        status: null,
        body: null,
        error: describeError(err, this.timeoutMs),
        acknowledged: false,
        durationMs: 0,
      };
    }
    exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
    this.exchanges.push(exchange);
    return exchange;
  }
}

function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code) return `${cause.code}: ${cause.message ?? err.message}`;
    return cause?.message ? `${err.message}: ${cause.message}` : err.message;
  }
  return String(err);
}

/** "HTTP 500 {...}" or the transport error, for reasons. */
function answerOf(e: WebhookExchange): string {
  if (e.status === null) return e.error ?? 'no answer';
  const body = (e.body ?? '').replace(/\s+/g, ' ').trim();
  return `HTTP ${e.status}${body ? ` ${body.length > 80 ? body.slice(0, 77) + '...' : body}` : ' (empty body)'}`;
}

/** A refusal of a well-signed delivery (a 4xx): the answer's failure points to the explanation of signature checks. */
function refusedHint(e: WebhookExchange): string {
  return e.status !== null && e.status >= 400 && e.status < 500 ? ` (${EXPLAIN_POINTER})` : '';
}

/** The failure of a well-signed delivery that was not acknowledged, or null. */
function notAcknowledged(e: WebhookExchange, what = 'expected'): string | null {
  if (e.acknowledged) return null;
  return `${what} 2xx {"code":"200","message":"SUCCESS"}, got ${answerOf(e)}${refusedHint(e)}`;
}

/** The verdict on the answers of a case; the state part is added by `judge`. */
interface AnswerVerdict {
  id: WebhookCheckId;
  title: string;
  exchanges: WebhookExchange[];
  failure: string | null;
  success: string;
  /** What the case requires of the handler's state (read when a state URL is given). */
  state?: StateExpectation[];
}

/** The state expectations of the battery: each is one order and what it must show. */
/** An expectation that an outcome was applied to `p`: its order must be one the shop knows. */
function applied(p: Payment, after: string, check: (state: OrderState) => string | null): StateExpectation {
  return { order: p.merchantId, after, check, unknown: p.supplied ? 'unknown_supplied' : 'needs_orders' };
}

const requires = {
  paid: (p: Payment, after: string): StateExpectation =>
    applied(p, after, (s) =>
      s.payment_status === 'SUCCEEDED' ? null : 'a well-signed SUCCEEDED outcome must be applied (payment_status SUCCEEDED)',
    ),
  failed: (p: Payment, after: string): StateExpectation =>
    applied(p, after, (s) =>
      s.payment_status === 'FAILED' ? null : 'a well-signed FAILED outcome must be applied (payment_status FAILED)',
    ),
  endsPaid: (p: Payment, after: string): StateExpectation =>
    applied(p, after, (s) =>
      s.payment_status === 'SUCCEEDED'
        ? null
        : 'the terminal SUCCEEDED after an intermediate status must be applied (payment_status SUCCEEDED): remember each (transaction, status) pair, not the transaction alone',
    ),
  untouched: (p: Payment, after: string): StateExpectation => ({
    order: p.merchantId,
    after,
    unknown: 'nothing_applied',
    check: (s) =>
      s.payment_status === null && s.refunded_amount === 0
        ? null
        : 'a forged or badly signed delivery must change nothing (payment_status null, nothing refunded)',
  }),
  refundedOnce: (p: Payment, after: string): StateExpectation =>
    applied(p, after, (s) =>
      s.payment_status !== 'SUCCEEDED'
        ? 'the payment must be applied (payment_status SUCCEEDED)'
        : s.refunded_amount === REFUND_AMOUNT
          ? null
          : `the refund must be counted once (refunded_amount ${REFUND_AMOUNT})`,
    ),
  notPaid: (p: Payment, after: string): StateExpectation => ({
    order: p.merchantId,
    after,
    unknown: 'nothing_applied',
    check: (s) => (s.payment_status === 'SUCCEEDED' ? 'a status the handler does not know must not be taken as paid' : null),
  }),
};

/** Reads one order from the merchant's state URL. */
async function readState(
  b: Battery,
  stateUrl: string,
  order: string,
): Promise<{ reading: StateReading; state: OrderState | null; unknownOrder: boolean }> {
  const url = `${stateUrl.replace(/\/+$/, '')}/${encodeURIComponent(order)}`;
  try {
    const { status, text } = await b.get(url);
    let body: unknown = text.slice(0, MAX_KEPT_ANSWER);
    try {
      body = JSON.parse(text) as unknown;
    } catch {}
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const paymentStatus = fields?.payment_status;
    const refunded = fields?.refunded_amount ?? 0;
    const usable =
      status >= 200 &&
      status < 300 &&
      fields !== undefined &&
      (paymentStatus === null || paymentStatus === undefined || typeof paymentStatus === 'string') &&
      typeof refunded === 'number';
    const error = usable
      ? null
      : `expected 200 {"payment_status": "SUCCEEDED" | "FAILED" | null, "refunded_amount"?: n}, got HTTP ${status}`;
    return {
      reading: { order, url, status, body, error },
      state: usable ? { payment_status: (paymentStatus as string | null | undefined) ?? null, refunded_amount: refunded as number } : null,
      unknownOrder: status === 404,
    };
  } catch (err) {
    return {
      reading: { order, url, status: null, body: null, error: describeError(err, b.timeoutMs) },
      state: null,
      unknownOrder: false,
    };
  }
}

/** The case's result: its answers, and with a state URL what the handler's state showed after it. */
async function judge(b: Battery, stateUrl: string | undefined, v: AnswerVerdict): Promise<WebhookCheckResult> {
  const readings: StateReading[] = [];
  let stateFailure: string | null = null;
  let needsOrders: string | null = null;
  let statePassed: boolean | null = null;
  let unknownNote = '';
  if (stateUrl !== undefined && v.state && v.state.length > 0) {
    for (const expectation of v.state) {
      const { reading, state, unknownOrder } = await readState(b, stateUrl, expectation.order);
      readings.push(reading);
      const seen = `GET ${reading.url} answered 404 after ${expectation.after}`;
      let failure: string | null;
      if (unknownOrder && expectation.unknown === 'nothing_applied') {
        failure = null; // the shop holds nothing about the order: nothing was applied
        unknownNote = '; state: the order is unknown to the shop (404), so nothing was applied';
      } else if (unknownOrder && expectation.unknown === 'needs_orders') {
        failure = null;
        needsOrders ??= `needs --orders: ${seen}, so the shop does not know the order the battery made up; name pending orders your shop created (--orders, "orders")`;
      } else if (unknownOrder) {
        failure = `the order ${expectation.order} named in --orders must be one the shop created and knows`;
      } else failure = state === null ? reading.error : expectation.check(state);
      if (failure !== null && stateFailure === null)
        stateFailure = `state: GET ${reading.url} showed ${shown(reading)} after ${expectation.after}; ${failure}`;
    }
    statePassed = stateFailure === null;
  }
  const answerPassed = v.failure === null;
  const failures = [v.failure === null ? null : `answer: ${v.failure}`, stateFailure].filter((f): f is string => f !== null);
  const outcome: WebhookCheckOutcome = failures.length > 0 ? 'failed' : needsOrders !== null ? 'needs_orders' : 'passed';
  const stateNote = statePassed ? unknownNote || '; state as expected' : '';
  return {
    id: v.id,
    title: v.title,
    passed: outcome === 'passed',
    outcome,
    reason:
      outcome === 'failed'
        ? failures.join('; ')
        : outcome === 'needs_orders'
          ? `${v.success}; ${needsOrders!}`
          : `${v.success}${stateNote}`,
    answerPassed,
    statePassed: outcome === 'needs_orders' ? null : statePassed,
    order: v.state?.find((e) => e.unknown === 'unknown_supplied')?.order ?? null,
    exchanges: v.exchanges,
    state: readings,
  };
}

/** A state answer in a reason: its JSON (cut short), or the transport error. */
function shown(reading: StateReading): string {
  if (reading.status === null) return `no answer (${reading.error ?? 'unknown error'})`;
  const text = typeof reading.body === 'string' ? reading.body : JSON.stringify(reading.body);
  const body = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return reading.status >= 200 && reading.status < 300 ? body : `HTTP ${reading.status} ${body}`;
}

/** A valid delivery must be acknowledged. */
async function accepts(b: Battery, id: WebhookCheckId, title: string, d: Delivery, state?: StateExpectation[]): Promise<AnswerVerdict> {
  const e = await b.send(d);
  return { id, title, exchanges: [e], failure: notAcknowledged(e), success: `acknowledged (${answerOf(e)})`, ...(state ? { state } : {}) };
}

/** A forged delivery must not be acknowledged: the handler answered, and not with success. */
async function rejects(b: Battery, id: WebhookCheckId, title: string, d: Delivery, state?: StateExpectation[]): Promise<AnswerVerdict> {
  const e = await b.send(d);
  let failure: string | null = null;
  if (e.acknowledged) failure = `accepted a forged delivery: ${answerOf(e)}`;
  else if (e.status === null) failure = `no answer: ${e.error ?? 'unknown error'}`;
  else if (e.status >= 200 && e.status < 300) failure = `answered ${answerOf(e)}; reject with a 4xx (401/400) instead of a 2xx`;
  return { id, title, exchanges: [e], failure, success: `rejected (${answerOf(e)})`, ...(state ? { state } : {}) };
}

/**
 * The same payment as `d`, written as another (valid, equivalent) JSON text: indented, with a
 * final newline, and each '-' of `merchant_transaction_id` as the escape \u002d; signed over
 * these exact bytes. Every JSON serializer writes the parsed object back differently, so a
 * handler that verifies re-serialized JSON (JSON.stringify(JSON.parse(raw)), json.dumps,
 * json_encode, ...) instead of the bytes received refuses it.
 */
function reformatted(d: Delivery, sign: WebhookSigner, timeZone: string): Delivery {
  const body = JSON.parse(d.raw) as { merchant_transaction_id: string };
  const escapedId = JSON.stringify(body.merchant_transaction_id).replaceAll('-', '\\u002d');
  const raw = `${JSON.stringify(body, null, 2).replace(JSON.stringify(body.merchant_transaction_id), escapedId)}\n`;
  return { label: `${d.label}, indented and with \\u escapes`, raw, headers: webhookHeaders(raw, new Date(), timeZone, sign) };
}

function otherKeySigner(signing: WebhookSigning): WebhookSigner {
  if (signing.mode === 'hmac') return createSigner({ mode: 'hmac', secret: `${signing.secret}-not-the-secret` });
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return createSigner({ mode: 'rsa', privateKeyPem: privateKey });
}

/**
 * Runs the battery against the merchant handler at `url` and returns a report, case by
 * case. Never throws for a misbehaving handler (that is a failed case).
 * @throws TypeError if `url` (or `stateUrl`) is not an http(s) URL, or `orders` is not a list of
 *   distinct ids of 1 to 64 characters; Error for a bad signing configuration.
 */
export async function checkWebhooks(url: string, options: CheckWebhooksOptions = {}): Promise<WebhookCheckReport> {
  for (const u of [url, options.stateUrl]) {
    if (u === undefined) continue;
    const parsed = new URL(u);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`the merchant URL must be http(s), got ${u}`);
  }
  const ordersProblem = options.orders === undefined ? null : problemWithOrders(options.orders);
  if (ordersProblem !== null) throw new TypeError(`orders: ${ordersProblem}`);
  const signing: WebhookSigning = options.signing ?? { mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM };
  const timeZone = options.timeZone ?? 'UTC';
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const sign = createSigner(signing);
  const poster = createPoster({ timeoutMs, maxFreePerOrigin: 1, ...(options.guard ? { guard: options.guard } : {}) });
  try {
    const b = new Battery(poster, url, sign, timeZone, timeoutMs, options.currency ?? 'USD', options.orders ?? []);
    const startedAt = new Date().toISOString();
    const checks = await runBattery(b, signing, sign, options.stateUrl);
    return {
      url,
      signing: signing.mode,
      timeZone,
      timeoutMs,
      passed: checks.every((c) => c.outcome !== 'failed'),
      needsOrders: checks.filter((c) => c.outcome === 'needs_orders').map((c) => c.id),
      startedAt,
      stateUrl: options.stateUrl ?? null,
      orders: b.used,
      checks,
    };
  } finally {
    poster.close();
  }
}

/** The most orders `orders` may name. */
export const MAX_ORDERS = 100;

/**
 * Why `orders` cannot be used, or null: each an `external_identifier` (1 to 64 characters, no
 * comma, as the command line separates them with commas), all distinct, at most `MAX_ORDERS`.
 */
export function problemWithOrders(orders: readonly string[]): string | null {
  if (orders.length > MAX_ORDERS) return `at most ${MAX_ORDERS} orders, got ${orders.length}`;
  const seen = new Set<string>();
  for (const order of orders) {
    if (order.length < 1 || order.length > 64) return `each order is an external_identifier of 1 to 64 characters, got "${order}"`;
    if (order.includes(',')) return `an order cannot contain a comma, got "${order}"`;
    if (seen.has(order)) return `each order can be named once, "${order}" is named twice`;
    seen.add(order);
  }
  return null;
}

/** About 256 KiB of well-formed padding: a list of line items, as a bigger body from a later version could carry. */
function padding(): { sku: string; description: string }[] {
  const items: { sku: string; description: string }[] = [];
  for (let i = 0; i < 2048; i++) items.push({ sku: `sku-${i}`, description: 'x'.repeat(96) });
  return items;
}

async function runBattery(
  b: Battery,
  signing: WebhookSigning,
  sign: WebhookSigner,
  stateUrl: string | undefined,
): Promise<WebhookCheckResult[]> {
  const checks: WebhookCheckResult[] = [];
  const add = async (v: AnswerVerdict | Promise<AnswerVerdict>) => void checks.push(await judge(b, stateUrl, await v));

  {
    const p = b.knownOrder();
    await add(
      accepts(b, 'payment_succeeded', 'accepts a valid SUCCEEDED payment webhook', b.paymentDelivery(p, 'SUCCEEDED'), [
        requires.paid(p, 'a well-signed SUCCEEDED payment webhook'),
      ]),
    );
  }
  {
    const p = b.knownOrder();
    await add(
      accepts(b, 'payment_failed', 'accepts a valid FAILED payment webhook', b.paymentDelivery(p, 'FAILED'), [
        requires.failed(p, 'a well-signed FAILED payment webhook'),
      ]),
    );
  }
  {
    const p = b.knownOrder();
    const pay = await b.send(b.paymentDelivery(p, 'SUCCEEDED'));
    const refund = await b.send(b.refundDelivery(p));
    await add({
      id: 'refund',
      title: 'accepts a valid refund webhook (after its payment)',
      exchanges: [pay, refund],
      failure: !pay.acknowledged
        ? `the payment before the refund was not acknowledged: ${answerOf(pay)}${refusedHint(pay)}`
        : notAcknowledged(refund),
      success: `acknowledged (${answerOf(refund)})`,
      state: [requires.refundedOnce(p, 'a payment and its refund')],
    });
  }
  {
    const p = b.payment();
    const d = b.paymentDelivery(p, 'SUCCEEDED');
    const body = JSON.parse(d.raw) as { payment_data: Record<string, string> };
    body.payment_data.payment_amount = body.payment_data.settlement_amount = '99999';
    const tampered = JSON.stringify(body);
    await add(
      rejects(
        b,
        'tampered_body',
        'rejects a body changed after signing',
        { label: `${d.label} with a changed amount`, raw: tampered, headers: d.headers },
        [requires.untouched(p, 'a forged delivery (a body changed after signing)')],
      ),
    );
  }
  {
    const p = b.payment();
    await add(
      rejects(
        b,
        'wrong_key',
        `rejects a signature made with another ${signing.mode === 'rsa' ? 'key' : 'secret'}`,
        b.paymentDelivery(p, 'SUCCEEDED', otherKeySigner(signing)),
        [requires.untouched(p, 'a forged delivery (signed with another key)')],
      ),
    );
  }
  {
    const p = b.payment();
    const d = b.paymentDelivery(p, 'SUCCEEDED');
    const { signature: _dropped, ...headers } = d.headers;
    await add(
      rejects(
        b,
        'missing_signature',
        'rejects a delivery without a signature header',
        { label: `${d.label} without signature`, raw: d.raw, headers },
        [requires.untouched(p, 'a delivery without a signature')],
      ),
    );
  }
  {
    const p = b.knownOrder();
    await add(
      accepts(
        b,
        'raw_body',
        'verifies the raw bytes received, not re-serialized JSON (indented, \\u escapes)',
        reformatted(b.paymentDelivery(p, 'SUCCEEDED'), sign, b.timeZone),
        [requires.paid(p, 'a well-signed payment webhook written with indents and \\u escapes')],
      ),
    );
  }
  {
    const p = b.knownOrder();
    const d = b.paymentDelivery(p, 'SUCCEEDED');
    const first = await b.send(d);
    const second = await b.send(b.again(d));
    const r = b.refundDelivery(p);
    const refund = await b.send(r);
    const refundAgain = await b.send(b.again(r));
    let failure: string | null = null;
    if (!first.acknowledged) failure = `the first delivery was not acknowledged: ${answerOf(first)}${refusedHint(first)}`;
    else if (!second.acknowledged)
      failure = `the repeated delivery was not acknowledged: ${answerOf(second)}; a repeat must succeed without a second effect`;
    else if (first.status !== second.status || first.body !== second.body)
      failure = `the two answers differ: ${answerOf(first)} then ${answerOf(second)}`;
    else if (!refund.acknowledged) failure = `the refund was not acknowledged: ${answerOf(refund)}${refusedHint(refund)}`;
    else if (!refundAgain.acknowledged)
      failure = `the repeated refund was not acknowledged: ${answerOf(refundAgain)}; a repeat must succeed without a second effect`;
    await add({
      id: 'duplicate_delivery',
      title: 'answers the same delivery twice with the same success',
      exchanges: [first, second, refund, refundAgain],
      failure,
      success: 'each delivery and its repeat acknowledged with the same answer',
      state: [requires.refundedOnce(p, 'a payment and a refund, each delivered twice')],
    });
  }
  {
    const p = b.knownOrder();
    const refund = b.refundDelivery(p);
    const early = await b.send(refund);
    const pay = await b.send(b.paymentDelivery(p, 'SUCCEEDED'));
    const late = await b.send(b.again(refund));
    let failure: string | null = null;
    if (early.status === null) failure = `no answer to a refund before its payment: ${early.error ?? 'unknown error'}`;
    else if (!pay.acknowledged) failure = `the payment after its refund was not acknowledged: ${answerOf(pay)}${refusedHint(pay)}`;
    else if (!late.acknowledged) failure = `the refund sent again after its payment was not acknowledged: ${answerOf(late)}`;
    const how = early.acknowledged ? 'kept the early refund' : `asked for a retry (${answerOf(early)})`;
    await add({
      id: 'refund_before_payment',
      title: 'copes with a refund webhook that arrives before its payment',
      exchanges: [early, pay, late],
      failure,
      success: `${how}, then acknowledged the payment and the refund`,
      state: [requires.refundedOnce(p, 'a refund before its payment, the payment, the refund again')],
    });
  }
  {
    // A later version of the API adds fields: at the top level and inside payment_data / refund_data.
    const p = b.knownOrder();
    const pay = await b.send(
      b.paymentDelivery(p, 'SUCCEEDED', undefined, (body) =>
        JSON.stringify({ ...body, api_version: '2099-01-01', payment_data: { ...body.payment_data, risk_score: 12, installments: null } }),
      ),
    );
    const refund = await b.send(
      b.refundDelivery(p, undefined, (body) =>
        JSON.stringify({ ...body, api_version: '2099-01-01', refund_data: { ...body.refund_data, refund_channel: 'ORIGINAL_METHOD' } }),
      ),
    );
    await add({
      id: 'unknown_field',
      title: 'accepts webhooks with fields the spec does not list (at the top level and inside payment_data / refund_data)',
      exchanges: [pay, refund],
      failure:
        notAcknowledged(pay, 'payment with an extra field: expected') ?? notAcknowledged(refund, 'refund with an extra field: expected'),
      success: 'both acknowledged',
      state: [requires.refundedOnce(p, 'a payment and a refund with extra fields')],
    });
  }
  {
    const p = b.payment();
    const d = b.paymentDelivery(p, 'SUCCEEDED', undefined, (body) =>
      JSON.stringify({ ...body, payment_data: { ...body.payment_data, payment_status: 'PROCESSING' } }),
    );
    await add(
      accepts(
        b,
        'unknown_status',
        'acknowledges a payment_status the spec does not list (PROCESSING), without taking it as paid',
        {
          ...d,
          label: `PROCESSING payment webhook for ${p.merchantId}`,
        },
        [requires.notPaid(p, 'a PROCESSING payment webhook')],
      ),
    );
  }
  {
    // One transaction moves through an intermediate status to its outcome: two deliveries with
    // the same ll_transaction_id, the second no duplicate of the first.
    const p = b.knownOrder();
    const processingAt = new Date(Date.now() - 1000); // its payment_time before the outcome's
    const processing = await b.send({
      ...b.paymentDelivery(
        p,
        'SUCCEEDED',
        undefined,
        (body) => JSON.stringify({ ...body, payment_data: { ...body.payment_data, payment_status: 'PROCESSING' } }),
        processingAt,
      ),
      label: `PROCESSING payment webhook for ${p.merchantId}`,
    });
    const succeeded = await b.send(b.paymentDelivery(p, 'SUCCEEDED'));
    await add({
      id: 'intermediate_status',
      title: 'applies the terminal SUCCEEDED that follows an intermediate PROCESSING of the same transaction',
      exchanges: [processing, succeeded],
      failure:
        notAcknowledged(processing, 'the PROCESSING webhook: expected') ??
        notAcknowledged(succeeded, 'the SUCCEEDED webhook after it: expected'),
      success: 'both acknowledged',
      state: [requires.endsPaid(p, 'a PROCESSING then a SUCCEEDED payment webhook of one transaction')],
    });
  }
  {
    const p = b.knownOrder();
    const d = b.paymentDelivery(p, 'SUCCEEDED', undefined, (body) => JSON.stringify({ ...body, line_items: padding() }));
    await add(
      accepts(
        b,
        'large_body',
        `accepts a well-signed body of about 256 KiB`,
        { ...d, label: `${d.label} (${Math.round(Buffer.byteLength(d.raw) / 1024)} KiB)` },
        [requires.paid(p, 'a well-signed 256 KiB payment webhook')],
      ),
    );
  }
  {
    const timeoutMs = b.timeoutMs;
    const slowest = b.exchanges.reduce<WebhookExchange | undefined>(
      (s, e) => (s === undefined || e.durationMs > s.durationMs ? e : s),
      undefined,
    );
    const late = b.exchanges.filter((e) => e.status === null && e.error?.startsWith('no answer within'));
    await add({
      id: 'time_limit',
      title: `answers every delivery within ${timeoutMs / 1000} s (the sandbox's delivery timeout)`,
      exchanges: late,
      failure:
        late.length > 0
          ? `${late.length} of ${b.exchanges.length} deliveries had no answer within ${timeoutMs / 1000} s (first: ${late[0]!.label})`
          : null,
      success: `all ${b.exchanges.length} deliveries answered; slowest ${slowest ? Math.round(slowest.durationMs) : 0} ms`,
    });
  }
  return checks;
}
