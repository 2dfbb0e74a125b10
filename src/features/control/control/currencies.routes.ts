/** Route definition of `GET /_sandbox/currencies`. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { json } from '../../../core/http/control-route-parts.js';

export const list = createRoute({
  method: 'get',
  path: '/currencies',
  ...controlOperation,
  operationId: 'listCurrencies',
  summary: 'ISO 4217 minor-unit exponent of every accepted currency (for showing amounts in major units)',
  responses: { 200: json(z.object({ exponents: z.record(z.string(), z.number().int()) })) },
});

export type ListRoute = typeof list;
