/** Route definitions of the webhook delivery log: list (attempts without bodies), one delivery with its attempts' bodies, resend. */
import { createRoute } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { pageQuerySchema, pageSchema } from '../../../core/http/pagination.js';
import { accountQuery, errors, idParam, json } from '../../../core/http/control-route-parts.js';
import { deliverySchema, deliverySummarySchema } from './deliveries.schemas.js';

/** The query of `GET /_sandbox/deliveries`: the page, and the account (default: every account). */
export const deliveryListQuerySchema = pageQuerySchema.extend(accountQuery.shape);

export const list = createRoute({
  method: 'get',
  path: '/deliveries',
  ...controlOperation,
  operationId: 'listDeliveries',
  summary: 'Webhook delivery log with every attempt (without its bodies), newest first',
  request: { query: deliveryListQuerySchema },
  responses: { 200: json(pageSchema(deliverySummarySchema, 'DeliveryPage')), 400: errors[400], 404: errors[404] },
});

export const get = createRoute({
  method: 'get',
  path: '/deliveries/{id}',
  ...controlOperation,
  operationId: 'getDelivery',
  summary: 'One delivery with every attempt and its request and response bodies (an answer is kept up to 4 KiB)',
  request: { params: idParam },
  responses: { 200: json(deliverySchema), 404: errors[404] },
});

export const resend = createRoute({
  method: 'post',
  path: '/deliveries/{id}/resend',
  ...controlOperation,
  operationId: 'resendDelivery',
  summary: 'Send a delivery again: same body, fresh timestamp and signature',
  request: { params: idParam },
  responses: { 202: json(deliverySchema, 'Queued'), 404: errors[404] },
});

export type ListRoute = typeof list;
export type GetRoute = typeof get;
export type ResendRoute = typeof resend;
