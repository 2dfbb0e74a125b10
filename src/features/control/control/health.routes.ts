/** Route definition of `GET /_sandbox/health`. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { json } from '../../../core/http/control-route-parts.js';

const keyPool = z
  .object({ size: z.number().int(), ready: z.number().int() })
  .describe('Account key pairs made ahead of time (--key-pool): ready of size');

export const get = createRoute({
  method: 'get',
  path: '/health',
  ...controlOperation,
  operationId: 'getHealth',
  summary: 'Ready check',
  responses: { 200: json(z.object({ status: z.literal('ok'), now: z.string(), key_pool: keyPool })) },
});

export type GetRoute = typeof get;
