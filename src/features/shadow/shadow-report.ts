/**
 * The shadow report (`GET /_sandbox/shadow`, `payment-sandbox shadow report`): each place where
 * the upstream's answer to an exchange and the sandbox's answer to the same request differ, by
 * kind, and how many exchanges were compared.
 */
import { z } from 'zod';

/**
 * What differs: `status` (the HTTP status), `error` (an error's `code` or a `details` entry),
 * `type` (a field's JSON type), `field` (a field one side lacks), `value` (a value the API's
 * vocabulary fixes: a record's `status`, a `type`), `page_size` (how many of the records
 * created through the proxy a page holds), `order` (their order on a page), `webhook` (a
 * webhook's shape).
 */
export const DIFFERENCE_KINDS = ['status', 'error', 'type', 'field', 'value', 'page_size', 'order', 'webhook'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export const shadowDifferenceSchema = z.object({
  kind: z.enum(DIFFERENCE_KINDS),
  /** Method and path template, e.g. `GET /v4/transactions/{transaction_id}`; `WEBHOOK <event>` for a webhook. */
  route: z.string(),
  /** The request as the app sent it (path and query), e.g. `GET /v4/transactions?limit=2`. */
  request: z.string(),
  /** Which exchange (1 for the first the proxy saw); 0 for a webhook. */
  exchange: z.number().int(),
  /** JSON pointer into the answer document `{status, body}` (a webhook: `/body/...`). */
  pointer: z.string(),
  /** The upstream's value (after normalising: ids, times, cursors and URLs become their JSON type). */
  upstream: z.unknown(),
  /** The sandbox's value, normalised the same way. */
  sandbox: z.unknown(),
});
export type ShadowDifference = z.infer<typeof shadowDifferenceSchema>;

export const shadowReportSchema = z.object({
  upstream: z.string(),
  generated_at: z.string(),
  summary: z.object({
    /** /v4 requests the proxy forwarded. */
    exchanges: z.number().int(),
    /** Exchanges whose two answers were compared (the others: the sandbox side could not answer, see `errors`). */
    compared: z.number().int(),
    /** Webhook pairs (one from each side for the same payment event) compared. */
    webhooks_compared: z.number().int(),
    differences: z.number().int(),
  }),
  /** The differences grouped by kind (only kinds that occur). */
  by_kind: z.record(z.string(), z.array(shadowDifferenceSchema)),
  differences: z.array(shadowDifferenceSchema),
  /** Exchanges the sandbox side could not run (e.g. it was stopping), each with its request and the reason. */
  errors: z.array(z.object({ exchange: z.number().int(), request: z.string(), message: z.string() })),
});
export type ShadowReport = z.infer<typeof shadowReportSchema>;
