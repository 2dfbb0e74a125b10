/**
 * The shadow session: each /v4 exchange the proxy forwarded to the upstream is replayed, in
 * the order the app sent them, against the sandbox account of the upstream's mode, and the two
 * answers are compared. It knows no HTTP: the proxy hands it each request with the upstream's
 * answer (a promise), and it calls the sandbox through its port.
 *
 * The sandbox side of a request: upstream ids in its path, query and body replaced by the
 * sandbox's (the id map), the app's credentials replaced by the sandbox account's when they are
 * the upstream credentials the proxy was given (other credentials, or none, are sent as they
 * are, so an authentication error is replayed too), the `Idempotency-Key` kept, and a
 * `notification_url` pointed at the proxy (the sandbox's webhooks never reach the app).
 */
import { compareAnswers, compareWebhooks, CreatedRecords, type ShadowAnswer } from './compare.js';
import { IdMap, routeOf } from './id-map.js';
import type { ShadowDifference, ShadowReport } from './shadow-report.js';

export type { ShadowAnswer } from './compare.js';

/** A /v4 request as the app sent it. */
export interface ShadowRequest {
  method: string;
  /** Path and query, starting with `/v4`. */
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The body's text, or undefined. */
  body: string | undefined;
}

/** The account mode the sandbox side uses: the upstream credentials' own. */
export type ShadowMode = 'direct' | 'checkout';

/** The in-process sandbox, as the session reaches it. */
export interface SandboxSide {
  /** Sends a /v4 request (credentials already chosen) to the sandbox. */
  send(request: ShadowRequest): Promise<ShadowAnswer>;
  /** The credentials of the sandbox's account of `mode`. */
  account(mode: ShadowMode): { apiKey: string; accountId: string };
}

/** One exchange, as the recording keeps it (before redaction). */
export interface RecordedExchange {
  exchange: number;
  at: string;
  request: ShadowRequest;
  response: ShadowAnswer;
}

export interface ShadowSessionOptions {
  /** The upstream's /v4 base, for the report. */
  upstream: string;
  /** The upstream credentials the proxy was given: the app's requests that carry them are signed as the sandbox account. */
  apiKey: string;
  accountId: string;
  sandbox: SandboxSide;
  /** Where the sandbox side's webhooks go (the proxy's own endpoint; `setSandboxWebhookUrl` once it listens). */
  sandboxWebhookUrl: string;
  /** Called with each exchange once compared (the recording). */
  record?: (exchange: RecordedExchange) => void;
  now?: () => Date;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Parses JSON text; the text itself when it is not JSON (or undefined when empty). */
export function parseBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The transaction a webhook is about, and its event (`type`, else the payment or refund status). */
function webhookSubject(body: unknown): { id: string; event: string } | null {
  if (!isRecord(body)) return null;
  const data = isRecord(body.data) ? body.data : {};
  const transaction = isRecord(data.transaction) ? data.transaction : {};
  const id = [body.ll_transaction_id, transaction.id, body.transaction_id, body.id].find((v): v is string => typeof v === 'string');
  if (id === undefined) return null;
  const payment = isRecord(body.payment_data) ? body.payment_data : {};
  const refund = isRecord(body.refund_data) ? body.refund_data : {};
  const event = [body.type, payment.payment_status, refund.refund_status, refund.status].find((v): v is string => typeof v === 'string');
  return { id, event: event ?? Object.keys(body).sort().join(',') };
}

const BEARER = /^bearer\s+/i;
const DROPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding']);

export class ShadowSession {
  private readonly ids = new IdMap();
  private readonly sides = { upstream: new CreatedRecords(), sandbox: new CreatedRecords() };
  private readonly differences: ShadowDifference[] = [];
  private readonly errors: ShadowReport['errors'] = [];
  private readonly webhooks: { upstream: unknown[]; sandbox: unknown[] } = { upstream: [], sandbox: [] };
  /** The app's own notification_url per upstream transaction id: where the upstream's webhook is forwarded. */
  private readonly appTargets = new Map<string, string>();
  private mode: ShadowMode = 'direct';
  private modeLearnt = false;
  private exchanges = 0;
  private compared = 0;
  private webhooksCompared = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly now: () => Date;

  private webhookUrl: string;

  constructor(private readonly options: ShadowSessionOptions) {
    this.now = options.now ?? (() => new Date());
    this.webhookUrl = options.sandboxWebhookUrl;
  }

  /** Points the sandbox side's `notification_url`s at `url` (the proxy's webhook endpoint). */
  setSandboxWebhookUrl(url: string): void {
    this.webhookUrl = url;
  }

  /** The account mode of the sandbox side (learnt from the upstream's first create: a `payment_url` means checkout). */
  get accountMode(): ShadowMode {
    return this.mode;
  }

  /**
   * Takes one exchange: its sandbox side runs after every earlier one (so the ids those
   * created are known), once the upstream answered.
   */
  observe(request: ShadowRequest, upstream: Promise<ShadowAnswer>): void {
    const n = (this.exchanges += 1);
    this.queue = this.queue.then(() =>
      this.replay(n, request, upstream).catch((err: unknown) => {
        this.errors.push({ exchange: n, request: `${request.method} ${request.path}`, message: (err as Error).message ?? String(err) });
      }),
    );
  }

  /** Resolves once every exchange taken so far was compared. */
  idle(): Promise<void> {
    return this.queue;
  }

  private sandboxRequest(request: ShadowRequest, appBody: unknown): ShadowRequest {
    const account = this.options.sandbox.account(this.mode);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (!DROPPED_HEADERS.has(name)) headers[name] = value;
    const auth = request.headers.authorization;
    if (auth !== undefined && BEARER.test(auth) && auth.replace(BEARER, '') === this.options.apiKey)
      headers.authorization = `Bearer ${account.apiKey}`;
    if (request.headers['x-merchant-account-id'] === this.options.accountId) headers['x-merchant-account-id'] = account.accountId;
    let body = request.body;
    if (appBody !== undefined && typeof appBody !== 'string') {
      const translated = this.ids.translateBody(appBody);
      if (isRecord(translated) && typeof translated.notification_url === 'string') translated.notification_url = this.webhookUrl;
      body = JSON.stringify(translated);
    }
    return { method: request.method, path: this.ids.translatePath(request.path), headers, body };
  }

  private async replay(n: number, request: ShadowRequest, upstreamAnswer: Promise<ShadowAnswer>): Promise<void> {
    const upstream = await upstreamAnswer;
    const bare = request.path.split('?')[0]!.replace(/\/+$/, '');
    const ok = (a: ShadowAnswer): boolean => a.status >= 200 && a.status < 300;
    if (request.method === 'POST' && bare === '/v4/transactions' && ok(upstream) && !this.modeLearnt) {
      this.modeLearnt = true;
      if (isRecord(upstream.body) && typeof upstream.body.payment_url === 'string') this.mode = 'checkout';
    }
    const appBody = parseBody(request.body);
    const sandbox = await this.options.sandbox.send(this.sandboxRequest(request, appBody));
    const route = routeOf(request.method, request.path, this.ids);
    const context = { exchange: n, route, request: `${request.method} ${request.path}` };
    this.differences.push(...compareAnswers(upstream, sandbox, this.sides, this.ids, request.method, request.path, context));
    this.compared += 1;
    if (ok(upstream) && ok(sandbox)) this.ids.learn(upstream.body, sandbox.body);
    this.sides.upstream.note(request.method, request.path, upstream);
    this.sides.sandbox.note(request.method, request.path, sandbox);
    if (
      isRecord(appBody) &&
      typeof appBody.notification_url === 'string' &&
      isRecord(upstream.body) &&
      typeof upstream.body.id === 'string'
    )
      this.appTargets.set(upstream.body.id, appBody.notification_url);
    this.matchWebhooks();
    this.options.record?.({ exchange: n, at: this.now().toISOString(), request, response: upstream });
  }

  /**
   * A webhook that reached the proxy: the upstream's (configured to send it to the proxy's
   * webhook endpoint) or the sandbox's. Each is compared by shape with the other side's for the
   * same transaction and event. Resolves with the app's own notification URL for an upstream
   * webhook, when the app gave one on the transaction (the proxy forwards it there).
   */
  webhook(side: 'upstream' | 'sandbox', body: unknown): string | undefined {
    this.webhooks[side].push(body);
    this.matchWebhooks();
    const subject = side === 'upstream' ? webhookSubject(body) : null;
    return subject ? this.appTargets.get(subject.id) : undefined;
  }

  private matchWebhooks(): void {
    for (let i = this.webhooks.sandbox.length - 1; i >= 0; i -= 1) {
      const mine = webhookSubject(this.webhooks.sandbox[i]);
      if (mine === null) continue;
      const upstreamId = this.ids.upstreamId(mine.id);
      if (upstreamId === undefined) continue;
      const j = this.webhooks.upstream.findIndex((b) => {
        const theirs = webhookSubject(b);
        return theirs !== null && theirs.id === upstreamId && theirs.event === mine.event;
      });
      if (j < 0) continue;
      const [theirs] = this.webhooks.upstream.splice(j, 1);
      const [ours] = this.webhooks.sandbox.splice(i, 1);
      this.webhooksCompared += 1;
      this.differences.push(...compareWebhooks(theirs, ours, `WEBHOOK ${mine.event}`));
    }
  }

  /** The report so far (call `idle()` first for every exchange taken). */
  report(): ShadowReport {
    const differences = [...this.differences];
    const byKind: Record<string, ShadowDifference[]> = {};
    for (const d of differences) (byKind[d.kind] ??= []).push(d);
    return {
      upstream: this.options.upstream,
      generated_at: this.now().toISOString(),
      summary: {
        exchanges: this.exchanges,
        compared: this.compared,
        webhooks_compared: this.webhooksCompared,
        differences: differences.length,
      },
      by_kind: byKind,
      differences,
      errors: [...this.errors],
    };
  }
}
