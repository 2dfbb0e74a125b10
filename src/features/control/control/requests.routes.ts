/** Route definition of the API request log, with its filters. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { pageQuerySchema, pageSchema } from '../../../core/http/pagination.js';
import { accountQuery, errors, json } from '../../../core/http/control-route-parts.js';
import { requestLogEntrySchema } from './requests.schemas.js';

/** The filters of `GET /_sandbox/requests`, besides `account_id`. */
export const requestFilterQuery = z.object({
  method: z
    .string()
    .regex(/^[A-Za-z]{1,10}$/, { message: 'method must be an HTTP method such as POST' })
    .optional()
    .openapi({ example: 'POST', description: 'The HTTP method (any case).' }),
  path: z
    .string()
    .regex(/^\/[^?#]*$/, { message: 'path must start with / and carry no query string' })
    .max(2000)
    .optional()
    .openapi({
      example: '/v4/transactions',
      description: 'The path, exactly, without the query string (a logged `/v4/transactions?limit=5` matches `/v4/transactions`).',
    }),
  path_prefix: z
    .string()
    .regex(/^\/[^?#]*$/, { message: 'path_prefix must start with / and carry no query string' })
    .max(2000)
    .optional()
    .openapi({
      example: '/v4/transactions/',
      description: 'The path starts with this (`/v4/transactions/` finds every call on one transaction: gets, refunds).',
    }),
  status: z
    .string()
    .regex(/^[1-5](\d\d|[xX][xX])$/, { message: 'status must be a status code such as 201, or a class such as 4xx' })
    .optional()
    .openapi({ example: '201', description: 'A status code (`201`) or a class (`2xx`, `4xx`, `5xx`).' }),
});

export const list = createRoute({
  method: 'get',
  path: '/requests',
  ...controlOperation,
  operationId: 'listRequests',
  summary:
    "The API request log, newest first: one account's, or every request without account_id (401s included); filtered by method, path and status",
  description:
    'Every filter given must hold. `path` is compared with the logged path without its query string, exactly; `path_prefix` matches paths that start with it. Cursors of a filtered page are used with the same filters.',
  request: { query: pageQuerySchema.extend(accountQuery.shape).extend(requestFilterQuery.shape) },
  responses: { 200: json(pageSchema(requestLogEntrySchema, 'RequestLogPage')), 400: errors[400], 404: errors[404] },
});

export type ListRoute = typeof list;
