/**
 * `checkWebhooks(url, options)`: the battery that tells a merchant whether their webhook
 * handler is production-ready. It sends the handler deliveries built and signed
 * exactly as the sandbox builds and signs them (src/webhooks/formats.ts for the bodies,
 * src/webhooks/signing.ts for the signature and headers) and judges each answer against
 * the documented Webhooks section: delivered means 2xx with `{"code":"200","message":"SUCCESS"}`.
 * This module owns the cases, their verdicts and the typed report; the command line that
 * prints it is src/check-webhooks/command.ts.
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

/** The verdict on one case. */
export interface WebhookCheckResult {
  id: WebhookCheckId;
  /** What a production-ready handler does, in one line. */
  title: string;
  passed: boolean;
  /** Why it passed or failed, in one line. */
  reason: string;
  exchanges: WebhookExchange[];
}

/** What `checkWebhooks` returns (and `check-webhooks --json` prints). */
export interface WebhookCheckReport {
  url: string;
  signing: WebhookSigning['mode'];
  timeZone: string;
  timeoutMs: number;
  /** True when every case passed. */
  passed: boolean;
  startedAt: string;
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
}

const MAX_KEPT_ANSWER = 4096;

interface Delivery {
  label: string;
  raw: string;
  headers: Record<string, string>;
}

/** Builds and sends the deliveries of one run; ids are unique per run so runs never collide. */
class Battery {
  private readonly run = randomUUID().slice(0, 8);
  private counter = 0;
  readonly exchanges: WebhookExchange[] = [];

  constructor(
    private readonly poster: WebhookPoster,
    private readonly url: string,
    private readonly sign: WebhookSigner,
    private readonly timeZone: string,
    private readonly timeoutMs: number,
    private readonly currency: string,
  ) {}

  /** A fresh payment reference: sandbox id and merchant id. */
  payment(): { id: string; merchantId: string } {
    this.counter += 1;
    return { id: randomUUID(), merchantId: `check-${this.run}-order-${this.counter}` };
  }

  paymentDelivery(p: { id: string; merchantId: string }, status: PaymentWebhookStatus, signer: WebhookSigner = this.sign): Delivery {
    const at = new Date();
    const raw = JSON.stringify(
      paymentWebhookBody({
        llTransactionId: p.id,
        merchantTransactionId: p.merchantId,
        amount: 1050,
        currency: this.currency,
        status,
        at,
        timeZone: this.timeZone,
      }),
    );
    return { label: `${status} payment webhook for ${p.merchantId}`, raw, headers: webhookHeaders(raw, at, this.timeZone, signer) };
  }

  refundDelivery(p: { merchantId: string }, refundId: string = randomUUID()): Delivery {
    const at = new Date();
    const raw = JSON.stringify(
      refundWebhookBody({
        llTransactionId: refundId,
        merchantTransactionId: refundId,
        originalTransactionId: p.merchantId,
        amount: 500,
        currency: this.currency,
        reason: 'check-webhooks',
        at,
        timeZone: this.timeZone,
      }),
    );
    return { label: `refund webhook ${refundId} of ${p.merchantId}`, raw, headers: webhookHeaders(raw, at, this.timeZone, this.sign) };
  }

  /** The same delivery sent again as the sandbox retries it: same body and signature, fresh timestamp. */
  again(d: Delivery): Delivery {
    const signature = d.headers.signature;
    const headers = signature === undefined ? { ...d.headers } : webhookHeaders(d.raw, new Date(), this.timeZone, () => signature);
    return { label: `${d.label} (again)`, raw: d.raw, headers };
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

function result(
  id: WebhookCheckId,
  title: string,
  exchanges: WebhookExchange[],
  failure: string | null,
  success: string,
): WebhookCheckResult {
  return { id, title, passed: failure === null, reason: failure ?? success, exchanges };
}

/** A valid delivery must be acknowledged. */
async function accepts(b: Battery, id: WebhookCheckId, title: string, d: Delivery): Promise<WebhookCheckResult> {
  const e = await b.send(d);
  return result(
    id,
    title,
    [e],
    e.acknowledged ? null : `expected 2xx {"code":"200","message":"SUCCESS"}, got ${answerOf(e)}`,
    `acknowledged (${answerOf(e)})`,
  );
}

/** A forged delivery must not be acknowledged: the handler answered, and not with success. */
async function rejects(b: Battery, id: WebhookCheckId, title: string, d: Delivery): Promise<WebhookCheckResult> {
  const e = await b.send(d);
  let failure: string | null = null;
  if (e.acknowledged) failure = `accepted a forged delivery: ${answerOf(e)}`;
  else if (e.status === null) failure = `no answer: ${e.error ?? 'unknown error'}`;
  else if (e.status >= 200 && e.status < 300) failure = `answered ${answerOf(e)}; reject with a 4xx (401/400) instead of a 2xx`;
  return result(id, title, [e], failure, `rejected (${answerOf(e)})`);
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
 * @throws TypeError if `url` is not an http(s) URL; Error for a bad signing configuration.
 */
export async function checkWebhooks(url: string, options: CheckWebhooksOptions = {}): Promise<WebhookCheckReport> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`the merchant URL must be http(s), got ${url}`);
  const signing: WebhookSigning = options.signing ?? { mode: 'rsa', privateKeyPem: DEMO_WEBHOOK_PRIVATE_KEY_PEM };
  const timeZone = options.timeZone ?? 'UTC';
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const sign = createSigner(signing);
  const poster = createPoster({ timeoutMs, maxFreePerOrigin: 1, ...(options.guard ? { guard: options.guard } : {}) });
  try {
    return await runBattery(
      new Battery(poster, url, sign, timeZone, timeoutMs, options.currency ?? 'USD'),
      url,
      signing,
      sign,
      timeZone,
      timeoutMs,
    );
  } finally {
    poster.close();
  }
}

async function runBattery(
  b: Battery,
  url: string,
  signing: WebhookSigning,
  sign: WebhookSigner,
  timeZone: string,
  timeoutMs: number,
): Promise<WebhookCheckReport> {
  const startedAt = new Date().toISOString();
  const checks: WebhookCheckResult[] = [];

  checks.push(
    await accepts(b, 'payment_succeeded', 'accepts a valid SUCCEEDED payment webhook', b.paymentDelivery(b.payment(), 'SUCCEEDED')),
  );
  checks.push(await accepts(b, 'payment_failed', 'accepts a valid FAILED payment webhook', b.paymentDelivery(b.payment(), 'FAILED')));
  {
    const p = b.payment();
    const pay = await b.send(b.paymentDelivery(p, 'SUCCEEDED'));
    const refund = await b.send(b.refundDelivery(p));
    checks.push(
      result(
        'refund',
        'accepts a valid refund webhook (after its payment)',
        [pay, refund],
        !pay.acknowledged
          ? `the payment before the refund was not acknowledged: ${answerOf(pay)}`
          : !refund.acknowledged
            ? `expected 2xx {"code":"200","message":"SUCCESS"}, got ${answerOf(refund)}`
            : null,
        `acknowledged (${answerOf(refund)})`,
      ),
    );
  }
  {
    const d = b.paymentDelivery(b.payment(), 'SUCCEEDED');
    const body = JSON.parse(d.raw) as { payment_data: Record<string, string> };
    body.payment_data.payment_amount = body.payment_data.settlement_amount = '99999';
    const tampered = JSON.stringify(body);
    checks.push(
      await rejects(b, 'tampered_body', 'rejects a body changed after signing', {
        label: `${d.label} with a changed amount`,
        raw: tampered,
        headers: d.headers,
      }),
    );
  }
  checks.push(
    await rejects(
      b,
      'wrong_key',
      `rejects a signature made with another ${signing.mode === 'rsa' ? 'key' : 'secret'}`,
      b.paymentDelivery(b.payment(), 'SUCCEEDED', otherKeySigner(signing)),
    ),
  );
  {
    const d = b.paymentDelivery(b.payment(), 'SUCCEEDED');
    const { signature: _dropped, ...headers } = d.headers;
    checks.push(
      await rejects(b, 'missing_signature', 'rejects a delivery without a signature header', {
        label: `${d.label} without signature`,
        raw: d.raw,
        headers,
      }),
    );
  }
  checks.push(
    await accepts(
      b,
      'raw_body',
      'verifies the raw bytes received, not re-serialized JSON (indented, \\u escapes)',
      reformatted(b.paymentDelivery(b.payment(), 'SUCCEEDED'), sign, timeZone),
    ),
  );
  {
    const d = b.paymentDelivery(b.payment(), 'SUCCEEDED');
    const first = await b.send(d);
    const second = await b.send(b.again(d));
    let failure: string | null = null;
    if (!first.acknowledged) failure = `the first delivery was not acknowledged: ${answerOf(first)}`;
    else if (!second.acknowledged)
      failure = `the repeated delivery was not acknowledged: ${answerOf(second)}; a repeat must succeed without a second effect`;
    else if (first.status !== second.status || first.body !== second.body)
      failure = `the two answers differ: ${answerOf(first)} then ${answerOf(second)}`;
    checks.push(
      result(
        'duplicate_delivery',
        'answers the same delivery twice with the same success',
        [first, second],
        failure,
        'both deliveries acknowledged with the same answer',
      ),
    );
  }
  {
    const p = b.payment();
    const refund = b.refundDelivery(p);
    const early = await b.send(refund);
    const pay = await b.send(b.paymentDelivery(p, 'SUCCEEDED'));
    const late = await b.send(b.again(refund));
    let failure: string | null = null;
    if (early.status === null) failure = `no answer to a refund before its payment: ${early.error ?? 'unknown error'}`;
    else if (!pay.acknowledged) failure = `the payment after its refund was not acknowledged: ${answerOf(pay)}`;
    else if (!late.acknowledged) failure = `the refund sent again after its payment was not acknowledged: ${answerOf(late)}`;
    const how = early.acknowledged ? 'kept the early refund' : `asked for a retry (${answerOf(early)})`;
    checks.push(
      result(
        'refund_before_payment',
        'copes with a refund webhook that arrives before its payment',
        [early, pay, late],
        failure,
        `${how}, then acknowledged the payment and the refund`,
      ),
    );
  }
  {
    const slowest = b.exchanges.reduce<WebhookExchange | undefined>(
      (s, e) => (s === undefined || e.durationMs > s.durationMs ? e : s),
      undefined,
    );
    const late = b.exchanges.filter((e) => e.status === null && e.error?.startsWith('no answer within'));
    checks.push(
      result(
        'time_limit',
        `answers every delivery within ${timeoutMs / 1000} s (the sandbox's delivery timeout)`,
        late,
        late.length > 0
          ? `${late.length} of ${b.exchanges.length} deliveries had no answer within ${timeoutMs / 1000} s (first: ${late[0]!.label})`
          : null,
        `all ${b.exchanges.length} deliveries answered; slowest ${slowest ? Math.round(slowest.durationMs) : 0} ms`,
      ),
    );
  }
  return { url, signing: signing.mode, timeZone, timeoutMs, passed: checks.every((c) => c.passed), startedAt, checks };
}
