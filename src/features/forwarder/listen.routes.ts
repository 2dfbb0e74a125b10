/** Route definitions of the listener's control API: its stream, and its report of each attempt. */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { errors, idParam, json } from '../../core/http/control-route-parts.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import { attemptReportedSchema, attemptReportSchema, listenQuerySchema } from './listen.schemas.js';

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
