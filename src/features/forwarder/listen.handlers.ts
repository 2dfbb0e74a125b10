/**
 * Handlers of the listener's control API: `GET /_sandbox/listen` holds the stream a listener
 * takes attempts from (over a Node server written straight to the response; in process, a
 * `ReadableStream` body), `POST /_sandbox/listen/attempts/{id}` takes its report.
 */
import type { Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { accountOr404, type ControlHandler } from '../../core/http/control-route-parts.js';
import type { AccountDirectory } from '../../core/auth/account.js';
import { notFound } from '../../core/domain/errors.js';
import type { AppEnv } from '../../core/http/env.js';
import { nodeBindings } from '../../core/http/node-env.js';
import type { ForwardedAnswer } from '../../core/webhooks/forwarding.js';
import type { Listeners } from './listeners.js';
import type { AttemptMessage, AttemptReport } from './listen.schemas.js';
import type { ReportRoute } from './listen.routes.js';

/** A `: keep-alive` comment after this long without an attempt. */
const KEEP_ALIVE_MS = 15_000;
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' } as const;

export interface ListenDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  listeners: Listeners;
  /** `--delivery-timeout` in milliseconds, told to the listener (it posts under the same limit). */
  timeoutMs: number;
}

/** A listener's report as the dispatcher's port takes it. */
export function forwardedAnswer(report: AttemptReport): ForwardedAnswer {
  if ('error' in report)
    return {
      kind: 'error',
      error: report.error,
      timedOut: report.timed_out,
      ...(report.duration_ms === undefined ? {} : { durationMs: report.duration_ms }),
    };
  return { kind: 'answer', status: report.status, text: report.body, whole: report.whole, durationMs: report.duration_ms };
}

export function listenHandlers({ accounts, listeners, timeoutMs }: ListenDeps) {
  const stream = (c: Context<AppEnv>): Response => {
    const accountId = c.req.query('account_id') || undefined;
    accountOr404(accounts, accountId);
    const encoder = new TextEncoder();
    const event = (name: string, data: unknown): Uint8Array => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    const open = (write: (chunk: Uint8Array) => void): (() => void) => {
      const { id, disconnect } = listeners.connect(accountId ?? null, { send: (m: AttemptMessage) => write(event('attempt', m)) });
      write(event('ready', { listener_id: id, account_id: accountId ?? null, timeout_ms: timeoutMs }));
      const keepAlive = setInterval(() => write(encoder.encode(': keep-alive\n\n')), KEEP_ALIVE_MS);
      keepAlive.unref();
      return () => {
        clearInterval(keepAlive);
        disconnect();
      };
    };
    const outgoing = nodeBindings(c)?.outgoing;
    if (outgoing) {
      outgoing.writeHead(200, SSE_HEADERS);
      outgoing.flushHeaders();
      const close = open((chunk) => void outgoing.write(chunk));
      outgoing.once('close', close);
      return RESPONSE_ALREADY_SENT;
    }
    let close = (): void => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        close = open((chunk) => controller.enqueue(chunk));
      },
      cancel() {
        close();
      },
    });
    return new Response(body, { status: 200, headers: SSE_HEADERS });
  };

  const report: ControlHandler<ReportRoute> = (c) => {
    const { id } = c.req.valid('param');
    if (!listeners.report(id, forwardedAnswer(c.req.valid('json'))))
      throw notFound(`No attempt ${id} waits for a report (already reported, timed out, or its listener disconnected)`);
    return c.json({ recorded: true as const }, 200);
  };
  return { stream, report };
}
