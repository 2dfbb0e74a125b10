/** Route definition of `GET /_sandbox/webhook-handlers`. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errorSchema } from '../../../core/http/schemas.js';
import { webhookHandlerSchema } from './webhook-handlers.files.js';

export const list = createRoute({
  method: 'get',
  path: '/webhook-handlers',
  operationId: 'listWebhookHandlers',
  ...controlOperation,
  summary:
    'The webhook handler in each language (Node.js, Python, PHP, Ruby, Go, Java), each a complete program that verifies the signature over the raw body',
  responses: {
    200: {
      description: 'OK',
      content: { 'application/json': { schema: z.object({ handlers: z.array(webhookHandlerSchema) }).openapi('WebhookHandlers') } },
    },
    404: {
      description: 'The handler files (examples/webhook-handlers/) missing from the installation',
      content: { 'application/json': { schema: errorSchema } },
    },
  },
});

export type ListRoute = typeof list;
