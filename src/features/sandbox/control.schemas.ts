/**
 * The zod schemas of the sandbox's own control routes: the clock and an advance of it, the
 * health check, the reset, and one logged /v4 request with the request log's filters.
 */
import { z } from '@hono/zod-openapi';

/** A timestamp as the API writes it. */
const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000+00:00' });

export const clockSchema = z.object({ now: timestamp, offset_seconds: z.number() }).openapi('Clock');

export const clockAdvancedSchema = clockSchema
  .extend({ steps: z.number().int().openapi({ description: 'How many due steps ran.' }) })
  .openapi('ClockAdvanced');

export type Clock = z.infer<typeof clockSchema>;
export type ClockAdvanced = z.infer<typeof clockAdvancedSchema>;

/** The longest advance (about 10 years), for the control API and a fixture's `then`. */
export const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 60 * 60;
const MAX_ADVANCE_MONTHS = 120;

/** `{ seconds }` or `{ months }` (calendar months on the sandbox clock, UTC, clamped to the month's end). */
export const clockAdvanceSchema = z
  .object({
    seconds: z.number().positive().max(MAX_ADVANCE_SECONDS).optional().openapi({ description: 'Seconds to move forward.' }),
    months: z
      .number()
      .int()
      .min(1)
      .max(MAX_ADVANCE_MONTHS)
      .optional()
      .openapi({ description: 'Calendar months to move forward: the same day and time n months later (Jan 31 + 1 month = Feb 28).' }),
    wait_for_webhooks: z.boolean().default(true).openapi({
      description:
        "Default true: answer once every webhook the advance queued has had its attempt (acknowledged, refused or timed out; retries that fall due later wait for a later advance, and so do the webhooks of a transaction or subscription held behind such a retry, as each goes one at a time in order), so a test can check its handler right after the call. false: answer as soon as the clock has moved and its steps are saved, never waiting for a webhook's round trip (not one already under way, nor a retry falling due in the window); the webhooks follow.",
    }),
  })
  .refine((body) => (body.seconds === undefined) !== (body.months === undefined), { message: 'Give either seconds or months' })
  .openapi('ClockAdvance');

/** `{account_id}` in an account clock's path. */
export const accountClockParam = z.object({
  account_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'account_id', in: 'path' }, example: 'acc_demo_direct' }),
});

export const keyPoolSchema = z
  .object({ size: z.number().int(), ready: z.number().int() })
  .describe('Account key pairs made ahead of time (--key-pool): ready of size');

/** `POST /_sandbox/reset` body (optional). */
export const resetSchema = z
  .object({
    rewind_clock: z.boolean().default(false).openapi({
      description:
        'Also send the sandbox clock back to real time (offset 0, persisted with --db). Default false: the clock keeps its offset.',
    }),
  })
  .openapi('ResetRequest');

export const resetResultSchema = z
  .object({
    status: z.literal('reset'),
    now: z.string().openapi({ description: 'The sandbox clock after the reset.' }),
    offset_seconds: z.number().openapi({ description: 'How far the clock is ahead of real time: 0 after rewind_clock.' }),
  })
  .openapi('ResetResult');

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
