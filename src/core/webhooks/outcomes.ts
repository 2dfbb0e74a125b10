/**
 * One POST of a webhook and the outcome recorded for it, worded for the merchant: a simulated
 * failure, a missing or refused URL, the merchant's answer judged by the acknowledgement rule,
 * or the network error. The stored answer is cut to `MAX_STORED_RESPONSE`, and says so.
 */
import type { Delivery } from '../domain/entities.js';
import { isAcknowledgement } from './acknowledgement.js';
import type { ForwardedAnswer, WebhookForwarding } from './forwarding.js';
import { MAX_READ_RESPONSE, PostAbortedError, type WebhookPoster } from './post.js';

/**
 * Only the first 4 KiB of an answer is stored (it is judged on up to `MAX_READ_RESPONSE`): a
 * handler answering a large error page on each of 16 attempts must not grow the log by megabytes.
 */
export const MAX_STORED_RESPONSE = 4 * 1024;

/** The answer as stored: whole when it fits, else its first `MAX_STORED_RESPONSE` characters and a line saying it was cut. */
export function storedAnswer(text: string): string {
  if (text.length <= MAX_STORED_RESPONSE) return text;
  return `${text.slice(0, MAX_STORED_RESPONSE)}\n[cut: the sandbox keeps the first ${MAX_STORED_RESPONSE} of ${text.length} characters]`;
}

export interface AttemptOutcome {
  /** Cut by `drain()` (the sandbox is stopping): not recorded, the delivery stays pending. */
  aborted?: boolean;
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  /** The merchant was called (not a simulated failure, a missing or a refused URL). */
  contacted?: boolean;
  /** The merchant did not answer within the timeout. */
  timedOut?: boolean;
  /** The round trip as a listener measured it (a forwarded attempt); else the dispatcher times it. */
  durationMs?: number;
}

export interface SendDeps {
  poster: WebhookPoster;
  /** Why a URL may not receive webhooks now (targets.ts), or null. */
  refuseTarget?: (url: string) => Promise<string | null>;
  timeoutMs: number;
  /** Listeners that take attempts instead of the POST (`payment-sandbox listen`); none when unset. */
  forwarding?: WebhookForwarding;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Attempt `number` of a delivery with `headers`: simulated, refused, or POSTed and judged. */
export async function send(
  deps: SendDeps,
  row: Pick<Delivery, 'url' | 'body' | 'simulated_failures' | 'simulated_failure_status'> &
    Partial<Pick<Delivery, 'id' | 'account_id' | 'kind' | 'resource_id'>>,
  number: number,
  headers: Record<string, string>,
): Promise<AttemptOutcome> {
  // An attempt that contacts nobody (simulated, no URL) would end in the same turn of the
  // event loop: a backlog of them ran as one chain of promises that froze the server.
  if (number <= row.simulated_failures || !row.url) await yieldToEventLoop();
  if (number <= row.simulated_failures) {
    return {
      ok: false,
      status: row.simulated_failure_status,
      body: null,
      error: `simulated failure ${number} of ${row.simulated_failures} (scenario webhook_failures); the merchant was not contacted`,
    };
  }
  // A connected listener takes the attempt (with or without a URL): it posts to its own target.
  const forwarded =
    deps.forwarding && row.id !== undefined && row.account_id !== undefined
      ? deps.forwarding.forward({
          deliveryId: row.id,
          accountId: row.account_id,
          number,
          kind: row.kind ?? 'payment',
          resourceId: row.resource_id ?? '',
          url: row.url,
          headers,
          body: row.body,
        })
      : null;
  if (forwarded) return forwardedOutcome(await forwarded);
  if (!row.url) {
    return {
      ok: false,
      status: null,
      body: null,
      error: 'no notification URL: set notification_url on the transaction or start the sandbox with --notification-url',
    };
  }
  const refused = deps.refuseTarget ? await deps.refuseTarget(row.url) : null;
  if (refused !== null) return { ok: false, status: null, body: null, error: `target refused: ${refused}; the merchant was not contacted` };
  try {
    // Redirects are not followed; judged on the whole answer (up to 1 MiB); only the first 4 KiB is stored.
    const { status, text, whole } = await deps.poster.post(row.url, headers, row.body);
    const ok = whole && isAcknowledgement(status, text);
    return { ok, status, contacted: true, body: storedAnswer(text), error: ok ? null : answerError(status, whole) };
  } catch (err) {
    if (err instanceof PostAbortedError)
      return { aborted: true, ok: false, status: null, body: null, error: err.message, contacted: true, timedOut: false };
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return { ok: false, status: null, body: null, error: describePostError(err, deps.timeoutMs), contacted: true, timedOut };
  }
}

/** A listener's report judged as a direct POST's answer is: the same acknowledgement rule and stored text. */
export function forwardedOutcome(answer: ForwardedAnswer): AttemptOutcome {
  if (answer.kind === 'aborted')
    return { aborted: true, ok: false, status: null, body: null, error: 'the sandbox is stopping', contacted: true, timedOut: false };
  if (answer.kind === 'error')
    return {
      ok: false,
      status: null,
      body: null,
      error: answer.error,
      contacted: true,
      timedOut: answer.timedOut,
      ...(answer.durationMs === undefined ? {} : { durationMs: answer.durationMs }),
    };
  const { status, text, whole } = answer;
  const ok = whole && isAcknowledgement(status, text);
  return {
    ok,
    status,
    contacted: true,
    body: storedAnswer(text),
    error: ok ? null : answerError(status, whole),
    durationMs: answer.durationMs,
  };
}

/** Why an answer that is not the acknowledgement failed the attempt. */
export function answerError(status: number, whole: boolean): string {
  if (!whole && status >= 200 && status < 300) return `answer larger than ${MAX_READ_RESPONSE} bytes`;
  if (status >= 300 && status < 400) return `merchant answered HTTP ${status} (redirects are not followed)`;
  if (status >= 200 && status < 300) return 'answer was not {"code":"200","message":"SUCCESS"}';
  return `merchant answered HTTP ${status}`;
}

/** The recorded error of a POST that got no answer: the time limit, or the network error with its code. */
export function describePostError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
    const { code } = err as Error & { code?: unknown };
    if (typeof code === 'string') return `${code}: ${err.message}`;
    return err.message;
  }
  return String(err);
}
