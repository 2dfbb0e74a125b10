/** Request and answer schemas of the webhook workbench: sending any body signed, and explaining a failed signature check. */
import { z } from '@hono/zod-openapi';
import { httpUrlSchema } from '../../../core/http/schemas.js';
import { EXPLAIN_CAUSES } from '../signature-explain.js';

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
