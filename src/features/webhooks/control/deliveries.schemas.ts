/**
 * Response schemas of the control API's webhook deliveries: a delivery, its shown state and
 * every attempt with the exact request and the merchant's answer.
 */
import { z } from '@hono/zod-openapi';
import { DELIVERY_FAULTS } from '../../../core/domain/entities.js';

/** A timestamp as the API writes it. */
const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000+00:00' });

/**
 * One attempt to deliver a webhook: the exact request (its headers; the body every attempt
 * sends is the delivery's `body`, stored and shown once) and the merchant's answer.
 */
export const deliveryAttemptSchema = z
  .object({
    number: z.number().int().min(1),
    at: timestamp,
    url: z.string().nullable(),
    request_headers: z.record(z.string(), z.string()),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number(),
    ok: z.boolean(),
  })
  .openapi('DeliveryAttempt');

/** How a delivery stands, as shown: waiting for its first attempt, retrying after a failure, delivered, or given up. */
export const deliveryStateSchema = z.enum(['queued', 'retrying', 'delivered', 'failed']);

/** A webhook delivery with every attempt. */
export const deliverySchema = z
  .object({
    id: z.string(),
    merchant_account_id: z.string(),
    kind: z.enum(['payment', 'refund']),
    resource_id: z.string(),
    reference: z.string().nullable().openapi({
      description:
        "The merchant's reference the webhook carries (merchant_transaction_id, or original_transaction_id of a refund), if any.",
    }),
    url: z.string().nullable(),
    status: z.enum(['pending', 'delivered', 'failed']),
    fault: z.enum(DELIVERY_FAULTS).nullable().openapi({
      description:
        'A scripted webhook fault this delivery plays (scenario webhook_fault step, control API or panel), null for an ordinary one.',
    }),
    canary: z.boolean().openapi({
      description:
        'A webhook canary (--webhook-canary; sandbox extension): a copy with a broken signature the sandbox sent on its own after the first delivery this URL acknowledged. The handler must refuse it; it is never retried and never counted as a missed delivery.',
    }),
    state: deliveryStateSchema.openapi({
      description: 'queued (no attempt yet), retrying (an attempt failed, another is scheduled), delivered, failed (gave up).',
    }),
    attempts_count: z.number().int().min(0),
    next_attempt_at: timestamp.nullable(),
    body: z.string().openapi({ description: 'The exact bytes every attempt sent (stored once, not per attempt).' }),
    created_at: timestamp,
    delivered_at: timestamp.nullable(),
    attempts: z.array(deliveryAttemptSchema),
  })
  .openapi('Delivery');

/** An attempt as a list shows it: without the response body (`GET /_sandbox/deliveries/{id}` has it). */
export const deliveryAttemptSummarySchema = deliveryAttemptSchema.omit({ response_body: true }).openapi('DeliveryAttemptSummary');

/** A delivery as a list shows it: its attempts without their bodies, so a page stays small whatever the merchant answered. */
export const deliverySummarySchema = deliverySchema
  .extend({
    attempts: z
      .array(deliveryAttemptSummarySchema)
      .openapi({ description: 'Every attempt without its bodies; GET /_sandbox/deliveries/{id} gives them.' }),
  })
  .openapi('DeliverySummary');

export type DeliverySummary = z.infer<typeof deliverySummarySchema>;
export type DeliveryAttemptSummary = z.infer<typeof deliveryAttemptSummarySchema>;
export type DeliveryState = z.infer<typeof deliveryStateSchema>;
export type Delivery = z.infer<typeof deliverySchema>;
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;
