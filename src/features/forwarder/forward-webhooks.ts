/**
 * The listener's side: `forwardWebhooks({ sandboxUrl, forwardTo })` holds `GET /_sandbox/listen`
 * open, POSTs each attempt it is handed to `forwardTo` (always there, whatever the delivery's
 * notification URL: as the Stripe CLI's `listen --forward-to`) with the same headers and exact
 * body, and reports the handler's answer (status, body, duration), or the network error or
 * time-out, with `POST /_sandbox/listen/attempts/{id}`. The sandbox records it as that
 * attempt's answer. Used by `payment-sandbox listen` and by the package's API.
 */
import { controlHeaders, unreachableMessage } from '../../core/sandbox-client.js';
import { describePostError } from '../../core/webhooks/outcomes.js';
import { createPoster } from '../../core/webhooks/post.js';
import { attemptMessageSchema, type AttemptMessage, type AttemptReport } from './listen.schemas.js';

export interface ForwardWebhooksOptions {
  /** The running sandbox's origin, e.g. `http://127.0.0.1:4010`. */
  sandboxUrl: string;
  /** Where every webhook is POSTed, e.g. `http://localhost:3000/webhooks`. */
  forwardTo: string;
  /** Take only this account's deliveries (default: every account's). */
  accountId?: string;
  /** The sandbox's `--admin-token`, if it has one. */
  adminToken?: string;
  /** Hears of each forwarded attempt once its answer was reported. */
  onForward?: (forwarded: ForwardedDelivery) => void;
}

/** One forwarded attempt, as `payment-sandbox listen` prints it. */
export interface ForwardedDelivery {
  at: Date;
  deliveryId: string;
  number: number;
  kind: string;
  /** The body's status (`SUCCEEDED`, `FAILED`, `SUCCESS`, ...) or event type, when it names one. */
  event: string | null;
  resourceId: string;
  /** The handler's status, or null when it gave none (`error` says why). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookForwarder {
  /** Closes the stream: from then on the sandbox posts directly again (an attempt under way fails and is retried). */
  stop(): Promise<void>;
  /** Settles when the stream ends: resolves after `stop()`, rejects when the sandbox closed it or went away. */
  readonly closed: Promise<void>;
}

/** Why `forwardWebhooks` could not start: the sandbox refused (`refused`) or could not be reached. */
export class ForwardWebhooksError extends Error {
  override readonly name = 'ForwardWebhooksError';
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
  }
}

/** The status or event type a webhook body names, for the printed line. */
export function eventOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (typeof parsed.type === 'string') return parsed.type;
    for (const part of [parsed.payment_data, parsed.refund_data, parsed]) {
      const data = part as Record<string, unknown> | undefined;
      if (typeof data?.payment_status === 'string') return data.payment_status;
      if (typeof data?.refund_status === 'string') return data.refund_status;
    }
  } catch {}
  return null;
}

/**
 * Connects to the sandbox and forwards its deliveries until `stop()`. Resolves once the
 * stream is open (deliveries after that go to `forwardTo`).
 * @throws ForwardWebhooksError when the sandbox cannot be reached or refuses the stream.
 */
export async function forwardWebhooks(options: ForwardWebhooksOptions): Promise<WebhookForwarder> {
  const origin = options.sandboxUrl.replace(/\/+$/, '');
  const target = new URL(options.forwardTo); // throws on a bad URL
  if (!/^https?:$/.test(target.protocol))
    throw new ForwardWebhooksError(`--forward-to must be an http(s) URL: ${options.forwardTo}`, false);
  const controller = new AbortController();
  const query = options.accountId ? `?account_id=${encodeURIComponent(options.accountId)}` : '';
  let res: Response;
  try {
    res = await fetch(`${origin}/_sandbox/listen${query}`, {
      headers: { ...controlHeaders(options.adminToken), accept: 'text/event-stream' },
      signal: controller.signal,
    });
  } catch (err) {
    throw new ForwardWebhooksError(unreachableMessage(origin, err, '--sandbox-url'), false);
  }
  if (res.status !== 200 || !res.body) {
    const text = await res.text().catch(() => '');
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {}
    throw new ForwardWebhooksError(`the sandbox refused the listener (${res.status}): ${message}`, true);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let timeoutMs = 10_000;
  let poster = createPoster({ timeoutMs, maxFreePerOrigin: 8 });
  const underWay = new Set<Promise<void>>();
  let stopping = false;

  const reportTo = async (id: string, report: AttemptReport): Promise<void> => {
    await fetch(`${origin}/_sandbox/listen/attempts/${encodeURIComponent(id)}`, {
      method: 'POST',
      headers: controlHeaders(options.adminToken, true),
      body: JSON.stringify(report),
      signal: AbortSignal.timeout(10_000),
    })
      .then((r) => r.body?.cancel())
      .catch(() => {}); // the sandbox records the attempt as failed once its wait ends
  };

  const forward = async (attempt: AttemptMessage): Promise<void> => {
    const started = performance.now();
    let report: AttemptReport;
    try {
      const answer = await poster.post(options.forwardTo, attempt.headers, attempt.body);
      report = { status: answer.status, body: answer.text, whole: answer.whole, duration_ms: performance.now() - started };
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      report = { error: describePostError(err, timeoutMs), timed_out: timedOut, duration_ms: performance.now() - started };
    }
    await reportTo(attempt.id, report);
    options.onForward?.({
      at: new Date(),
      deliveryId: attempt.delivery_id,
      number: attempt.number,
      kind: attempt.kind,
      event: eventOf(attempt.body),
      resourceId: attempt.resource_id,
      status: 'status' in report ? report.status : null,
      error: 'error' in report ? report.error : null,
      durationMs: report.duration_ms ?? 0,
    });
  };

  const onEvent = (name: string, data: string): void => {
    if (name === 'ready') {
      const ready = JSON.parse(data) as { timeout_ms?: number };
      if (typeof ready.timeout_ms === 'number' && ready.timeout_ms !== timeoutMs) {
        timeoutMs = ready.timeout_ms;
        poster.close();
        poster = createPoster({ timeoutMs, maxFreePerOrigin: 8 });
      }
      return;
    }
    if (name !== 'attempt') return;
    const parsed = attemptMessageSchema.safeParse(JSON.parse(data));
    if (!parsed.success) return;
    const run = forward(parsed.data).finally(() => underWay.delete(run));
    underWay.add(run);
  };

  /** Reads events until the stream ends; resolves with the first `ready` seen. */
  let readyResolve: () => void = () => {};
  const ready = new Promise<void>((resolve) => (readyResolve = resolve));
  const readLoop = async (): Promise<void> => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length === 0) continue;
        onEvent(name, data.join('\n'));
        if (name === 'ready') readyResolve();
      }
    }
  };
  const closed = readLoop().then(
    () => {
      if (!stopping) throw new Error(`the sandbox at ${origin} closed the listener's stream`);
    },
    (err: unknown) => {
      if (!stopping) throw new Error(`the listener's stream from ${origin} broke: ${err instanceof Error ? err.message : String(err)}`);
    },
  );
  closed.catch(() => {}).finally(() => poster.close());
  await Promise.race([ready, closed]);

  return {
    closed,
    async stop() {
      if (stopping) return closed.catch(() => {});
      stopping = true;
      controller.abort();
      await closed.catch(() => {});
      await Promise.allSettled([...underWay]);
      poster.close();
    },
  };
}
