/**
 * Response schemas of the webhook public key in every published form (PEM, DER, JWK, X.509).
 */
import { z } from '@hono/zod-openapi';

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
