/** Route definition of `GET /_sandbox/webhook-public-key`. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errors } from '../../../core/http/control-route-parts.js';
import { webhookJwkSchema } from './webhook-key.schemas.js';
import { WEBHOOK_KEY_FORMATS } from './webhook-key.forms.js';

const webhookKeyQuery = z.object({
  format: z.enum(WEBHOOK_KEY_FORMATS).default('pem').openapi({
    description:
      'pem: SPKI PEM (default); der: SPKI DER in base64, one line; jwk: a JWK (RFC 7517) with kid, alg and use; x509: a self-signed X.509 certificate (PEM) of the key.',
  }),
});

export const get = createRoute({
  method: 'get',
  path: '/webhook-public-key',
  ...controlOperation,
  operationId: 'getWebhookPublicKey',
  summary: 'The webhook public key, in the form `format` names',
  description:
    'Verify the `signature` header (base64 RSA-SHA256 of the raw body) with this key. `?format=pem` (default) serves the SubjectPublicKeyInfo as PEM; `der` the same SPKI as base64 DER on one line (text/plain); `jwk` a JWK (application/jwk+json) with kid (RFC 7638 thumbprint), alg RS256 and use sig; `x509` a self-signed X.509 certificate of the key (PEM). The key is the published demo key: the same on every start.',
  request: { query: webhookKeyQuery },
  responses: {
    200: {
      description: 'The key',
      content: {
        'application/x-pem-file': { schema: z.string().openapi({ description: 'format=pem (PUBLIC KEY) or format=x509 (CERTIFICATE)' }) },
        'text/plain': { schema: z.string().openapi({ description: 'format=der: base64 of the DER SubjectPublicKeyInfo' }) },
        'application/jwk+json': { schema: webhookJwkSchema },
      },
    },
    400: errors[400],
  },
});

export type GetRoute = typeof get;
