/** The wire of the listener: the attempts on its stream and the report it posts back. */
import { z } from '@hono/zod-openapi';

/** `?account_id=` of `GET /_sandbox/listen`. */
export const listenQuerySchema = z.object({
  account_id: z
    .string()
    .optional()
    .openapi({
      param: { name: 'account_id', in: 'query' },
      description: "Take only this account's deliveries (default: every account's).",
    }),
});

/** One attempt as the stream's `attempt` event carries it. */
export const attemptMessageSchema = z
  .object({
    id: z.string().openapi({ description: 'The attempt to report on: `POST /_sandbox/listen/attempts/{id}`.' }),
    delivery_id: z.string(),
    account_id: z.string(),
    number: z.number().int().openapi({ description: "The attempt's number (1 for the first)." }),
    kind: z.string().openapi({ description: '`payment` or `refund`.' }),
    resource_id: z.string().openapi({ description: 'The transaction or refund the webhook is about.' }),
    url: z.string().nullable().openapi({ description: "The delivery's notification URL (the listener posts to its own target)." }),
    headers: z
      .record(z.string(), z.string())
      .openapi({ description: 'The headers to send (signature, timestamp, timezone, content type).' }),
    body: z.string().openapi({ description: 'The exact body; send its UTF-8 bytes.' }),
  })
  .openapi('ListenerAttempt');

export type AttemptMessage = z.infer<typeof attemptMessageSchema>;

/** What the listener reports: the handler's answer, or why there was none. */
export const attemptReportSchema = z
  .union([
    z.object({
      status: z.number().int().min(100).max(599),
      headers: z
        .record(z.string(), z.string())
        .optional()
        .openapi({ description: "The handler's answer headers (informative; not stored)." }),
      body: z
        .string()
        .max(1024 * 1024)
        .openapi({ description: "The handler's answer, decoded, up to 1 MiB." }),
      whole: z.boolean().default(true).openapi({ description: 'False when the answer was larger than 1 MiB and cut.' }),
      duration_ms: z.number().min(0).openapi({ description: 'The round trip as the listener measured it.' }),
    }),
    z.object({
      error: z.string().min(1).max(2_000).openapi({ description: 'The network error (refused connection, reset, DNS).' }),
      timed_out: z.boolean().default(false).openapi({ description: 'True when the handler did not answer within the delivery timeout.' }),
      duration_ms: z.number().min(0).optional(),
    }),
  ])
  .openapi('ListenerReport');

export type AttemptReport = z.infer<typeof attemptReportSchema>;

export const attemptReportedSchema = z.object({ recorded: z.literal(true) }).openapi('ListenerReportRecorded');
