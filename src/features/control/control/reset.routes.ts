/** Route definition of `POST /_sandbox/reset`. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errorSchema } from '../../../core/http/schemas.js';
import { errors, json } from '../../../core/http/control-route-parts.js';

/** `POST /_sandbox/reset` body (optional). */
const resetSchema = z
  .object({
    rewind_clock: z.boolean().default(false).openapi({
      description:
        'Also send the sandbox clock back to real time (offset 0, persisted with --db). Default false: the clock keeps its offset.',
    }),
  })
  .openapi('ResetRequest');

const resetResultSchema = z
  .object({
    status: z.literal('reset'),
    now: z.string().openapi({ description: 'The sandbox clock after the reset.' }),
    offset_seconds: z.number().openapi({ description: 'How far the clock is ahead of real time: 0 after rewind_clock.' }),
  })
  .openapi('ResetResult');

export const reset = createRoute({
  method: 'post',
  path: '/reset',
  ...controlOperation,
  operationId: 'resetSandbox',
  summary: 'Empty all data, keep the accounts, credentials and scenarios; optionally rewind the clock to real time',
  request: { body: { required: false, content: { 'application/json': { schema: resetSchema } } } },
  responses: { 200: json(resetResultSchema), 400: errors[400], 413: json(errorSchema, 'Body larger than --body-limit') },
});

export type ResetRoute = typeof reset;
