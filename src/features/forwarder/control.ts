/**
 * The control routes of the forwarder, their definitions and handlers:
 * `GET /_sandbox/listen` streams each webhook attempt of an account to its listener
 * (`payment-sandbox listen`), and `POST /_sandbox/listen/attempts/{id}` takes the listener's
 * report of what the local handler answered.
 */
import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { errors, idParam, json, accountOr404, type ControlHandler } from '../../core/http/control-route-parts.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import {
  attemptReportedSchema,
  attemptReportSchema,
  listenQuerySchema,
  type AttemptMessage,
  type AttemptReport,
} from './listen.schemas.js';
import type { Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { AccountDirectory } from '../../core/auth/account.js';
import { notFound } from '../../core/domain/errors.js';
import type { AppEnv } from '../../core/http/env.js';
import { EVENT_STREAM_HEADERS, nodeBindings } from '../../core/http/node-env.js';
import { createRouter } from '../../core/http/router.js';
import type { ForwardedAnswer } from '../../core/webhooks/forwarding.js';
import type { Listeners } from './listeners.js';

export const stream = {
  method: 'get',
  path: '/listen',
  ...controlOperation,
  operationId: 'listenForDeliveries',
  summary: 'Take webhook attempts over a stream instead of the sandbox posting them (sandbox extension; `payment-sandbox listen`)',
  description:
    "While this stream is open, each webhook attempt of its account (`account_id`; default every account) is sent on it as an `attempt` event (`ListenerAttempt`) instead of being POSTed by the sandbox. The listener posts it where it chooses and reports the handler's answer with `POST /_sandbox/listen/attempts/{id}`; the answer is judged and recorded as a direct POST's (retries, order, the go-live report). No report within the delivery timeout (and 2 s), or a stream closed before its report, counts as a network failure and is retried. The stream opens with a `ready` event and sends a `: keep-alive` comment every 15 s.",
  request: { query: listenQuerySchema },
  responses: {
    200: {
      description: 'The attempt stream',
      content: {
        'text/event-stream': { schema: { type: 'string', description: 'Server-sent events (event: ready | attempt; data: JSON)' } },
      },
    },
    404: errors[404],
  },
} satisfies RouteConfig;

export const report = createRoute({
  method: 'post',
  path: '/listen/attempts/{id}',
  ...controlOperation,
  operationId: 'reportListenerAttempt',
  summary: "Report the handler's answer to an attempt taken by a listener (sandbox extension)",
  request: { params: idParam, body: { required: true, content: { 'application/json': { schema: attemptReportSchema } } } },
  responses: { 200: json(attemptReportedSchema), 400: errors[400], 404: errors[404] },
});

export type ReportRoute = typeof report;

/** A `: keep-alive` comment after this long without an attempt. */
const KEEP_ALIVE_MS = 15_000;

export interface ListenDeps {
  accounts: Pick<AccountDirectory, 'byId'>;
  listeners: Listeners;
  /** `--delivery-timeout` in milliseconds, told to the listener (it posts under the same limit). */
  timeoutMs: number;
  /** Runs `end` when the sandbox stops (`SandboxEvents.onEnd`): a listener's stream ends then, not cut seconds later. */
  onStop(end: () => void): () => void;
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

export function listenHandlers({ accounts, listeners, timeoutMs, onStop }: ListenDeps) {
  const stream = (c: Context<AppEnv>): Response => {
    const accountId = c.req.query('account_id') || undefined;
    accountOr404(accounts, accountId);
    const encoder = new TextEncoder();
    const event = (name: string, data: unknown): Uint8Array => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    const open = (write: (chunk: Uint8Array) => void, end: () => void): (() => void) => {
      const { id, disconnect } = listeners.connect(accountId ?? null, { send: (m: AttemptMessage) => write(event('attempt', m)) });
      write(event('ready', { listener_id: id, account_id: accountId ?? null, timeout_ms: timeoutMs }));
      const keepAlive = setInterval(() => write(encoder.encode(': keep-alive\n\n')), KEEP_ALIVE_MS);
      keepAlive.unref();
      const stopHearing = onStop(end);
      return () => {
        clearInterval(keepAlive);
        stopHearing();
        disconnect();
      };
    };
    const outgoing = nodeBindings(c)?.outgoing;
    if (outgoing) {
      outgoing.writeHead(200, EVENT_STREAM_HEADERS);
      outgoing.flushHeaders();
      const close = open(
        (chunk) => void outgoing.write(chunk),
        () => outgoing.end(),
      );
      outgoing.once('close', close);
      return RESPONSE_ALREADY_SENT;
    }
    let close = (): void => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        close = open(
          (chunk) => controller.enqueue(chunk),
          () => {
            close();
            controller.close();
          },
        );
      },
      cancel() {
        close();
      },
    });
    return new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS });
  };

  const report: ControlHandler<ReportRoute> = (c) => {
    const { id } = c.req.valid('param');
    if (!listeners.report(id, forwardedAnswer(c.req.valid('json'))))
      throw notFound(`No attempt ${id} waits for a report (already reported, timed out, or its listener disconnected)`);
    return c.json({ recorded: true as const }, 200);
  };
  return { stream, report };
}

/** The listener's routes: the stream (documented in OpenAPI, served by a plain handler) and the report. */
export function listenControlRoutes(deps: ListenDeps): OpenAPIHono<AppEnv> {
  const handlers = listenHandlers(deps);
  const app = createRouter<AppEnv>();
  app.openAPIRegistry.registerPath(stream);
  app.get(stream.path, handlers.stream);
  app.openapi(report, handlers.report);
  return app;
}
