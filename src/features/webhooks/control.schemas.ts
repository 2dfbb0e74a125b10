/**
 * The zod schemas of the webhooks' control routes: a delivery, its shown state and every
 * attempt with the exact request and the merchant's answer; the webhook public key in every
 * published form (PEM, DER, JWK, X.509); the workbench's requests and answers (sending any
 * body signed, explaining a failed signature check).
 */
import { z } from '@hono/zod-openapi';
import { DELIVERY_FAULTS } from '../../core/domain/entities.js';
import { httpUrlSchema } from '../../core/http/schemas.js';
import { EXPLAIN_CAUSES } from './signature-explain.js';

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

/** An RSA public key as a JWK (RFC 7517), for verifying webhook signatures. */
export const webhookJwkSchema = z
  .object({
    kty: z.literal('RSA'),
    n: z.string(),
    e: z.string(),
    kid: z.string().openapi({ description: 'The RFC 7638 SHA-256 thumbprint of the key.' }),
    alg: z.literal('RS256'),
    use: z.literal('sig'),
  })
  .openapi('WebhookPublicJwk');

/** The webhook public key in every published form. */
export const webhookKeyFormsSchema = z
  .object({
    pem: z.string().openapi({ description: 'SubjectPublicKeyInfo, PEM.' }),
    der_base64: z.string().openapi({ description: 'SubjectPublicKeyInfo, DER, base64 (one line).' }),
    jwk: webhookJwkSchema,
    x509_pem: z.string().openapi({ description: 'A self-signed X.509 certificate of the key, PEM.' }),
  })
  .openapi('WebhookPublicKeyForms');

export type WebhookJwk = z.infer<typeof webhookJwkSchema>;
export type WebhookKeyForms = z.infer<typeof webhookKeyFormsSchema>;

/** `{"account_id", "url"?, "body"}`: the body is a JSON value (sent as its JSON text) or a string (sent byte for byte). */
export const sendWebhookRequestSchema = z
  .object({
    account_id: z.string().min(1).openapi({ description: 'The merchant account whose webhook this is.' }),
    url: httpUrlSchema.optional().openapi({ description: 'Where to send it; default the sandbox --notification-url.' }),
    body: z
      .union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())])
      .openapi({ description: 'A JSON value, sent as its JSON text, or a string, sent byte for byte.' }),
  })
  .openapi('SendWebhookRequest');

/** `{"body" | "body_base64", "signature", "delivery_id"?, "public_key"?}`. */
export const explainRequestSchema = z
  .object({
    body: z.string().optional().openapi({ description: 'The body text the handler verified.' }),
    body_base64: z.base64().optional().openapi({ description: 'The bytes the handler verified, in base64 (instead of body).' }),
    signature: z.string().openapi({ description: 'The signature header value the handler verified (or the signature it computed).' }),
    delivery_id: z.string().optional().openapi({ description: 'The delivery; without it the sandbox finds it by its signature or body.' }),
    public_key: z.string().optional().openapi({ description: 'The PEM public key the handler verified with.' }),
  })
  .refine((r) => (r.body === undefined) !== (r.body_base64 === undefined), {
    message: 'Give the body the handler verified as body or as body_base64 (one of them)',
    path: ['body'],
  })
  .openapi('ExplainSignatureRequest');

export const explanationSchema = z
  .object({
    valid: z.boolean(),
    cause: z.enum(EXPLAIN_CAUSES),
    detail: z.string(),
    fix: z.string(),
    delivery_id: z.string().optional(),
    first_difference: z
      .object({ offset: z.number().int().min(0), sent: z.string(), received: z.string() })
      .optional()
      .openapi({ description: 'The first byte where the verified body leaves the sent one, and a few bytes of each from there.' }),
  })
  .openapi('SignatureExplanation');

export type SendWebhookRequest = z.infer<typeof sendWebhookRequestSchema>;
export type ExplainSignatureRequest = z.infer<typeof explainRequestSchema>;
export type SignatureExplanation = z.infer<typeof explanationSchema>;
