/** Route definitions of the webhook workbench: send any body signed, and explain a failed signature check. */
import { createRoute } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errors, json } from '../../../core/http/control-route-parts.js';
import { deliverySchema } from './deliveries.schemas.js';
import { explainRequestSchema, explanationSchema, sendWebhookRequestSchema } from './workbench.schemas.js';

export const send = createRoute({
  method: 'post',
  path: '/webhooks/send',
  ...controlOperation,
  operationId: 'sendWebhook',
  summary: 'Send any body as a webhook, signed as every delivery is, with the same retries, log, faults and target guard',
  request: { body: { required: true, content: { 'application/json': { schema: sendWebhookRequestSchema } } } },
  responses: {
    201: json(deliverySchema, 'Queued'),
    400: json(errors[400].content['application/json'].schema, 'Bad request, no URL, or a URL the webhook target guard refuses'),
    404: errors[404],
  },
});

export const explain = createRoute({
  method: 'post',
  path: '/signatures/explain',
  ...controlOperation,
  operationId: 'explainSignature',
  summary: 'Say why a webhook signature check fails: one cause, the first differing byte and the fix',
  request: { body: { required: true, content: { 'application/json': { schema: explainRequestSchema } } } },
  responses: { 200: json(explanationSchema), 400: errors[400], 404: errors[404] },
});

export type SendRoute = typeof send;
export type ExplainRoute = typeof explain;
