/** The change feed's OpenAPI entry (the stream itself is served by a plain handler, not a zod route). */
import type { RouteConfig } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';

export const stream = {
  method: 'get',
  path: '/events',
  ...controlOperation,
  operationId: 'streamEvents',
  summary: 'The change feed as server-sent events',
  description:
    'One `ready` event (`{"now": ...}`), then one `change` event per change, its data a JSON object with a `type` (`transaction.*`, `refund.created`, `subscription.*`, `delivery.attempted`, `request.logged`, `clock.advanced`, ...). A `: keep-alive` comment is sent after 15 seconds without events. A stream that falls more than 1 MiB behind (its client does not read) gets one `dropped` event and is closed. The stream ends when the sandbox stops.',
  responses: {
    200: {
      description: 'The event stream',
      content: {
        'text/event-stream': { schema: { type: 'string', description: 'Server-sent events (event: ready | change; data: JSON)' } },
      },
    },
  },
} satisfies RouteConfig;
