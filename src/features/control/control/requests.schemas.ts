/**
 * Response schema of the control API's request log: one logged /v4 request, its error parsed.
 */
import { z } from '@hono/zod-openapi';

/** A timestamp as the API writes it. */
const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000+00:00' });

/** An error envelope as logged (the spec's error body). */
const loggedErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ type: z.string().optional(), pointer: z.string(), message: z.string(), location: z.string().optional() })),
});

/** One logged /v4 request. */
export const requestLogEntrySchema = z
  .object({
    id: z.number().int(),
    merchant_account_id: z.string().nullable(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    idempotency_key: z.string().nullable(),
    replayed: z.boolean(),
    duration_ms: z.number(),
    request_body: z.string().nullable(),
    response_body: z.string().nullable(),
    error: loggedErrorSchema.nullable().openapi({ description: 'The error envelope of a 4xx/5xx answer, parsed; null otherwise.' }),
    warnings: z.array(z.string()),
    at: timestamp,
    answer_delivered: z.boolean().nullable().openapi({
      description:
        'For a create (transaction, refund, subscription): whether its answer reached the client. False when the client closed the connection first, or a fault after execution (503-after, timeout-after, reset-after) hid the completed create. Null for any other request.',
    }),
  })
  .openapi('RequestLogEntry');

export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;
