/** Route definitions of accounts: the credentials of every account, and creating one. */
import { createRoute, z } from '@hono/zod-openapi';
import { controlOperation } from '../../../core/http/openapi/document.js';
import { errors, json } from '../../../core/http/control-route-parts.js';
import { accountCredentialsSchema, credentialsSchema } from './accounts.schemas.js';

export const credentials = createRoute({
  method: 'get',
  path: '/credentials',
  ...controlOperation,
  operationId: 'getCredentials',
  summary: 'Demo and created accounts with their credentials, and the webhook public key in every form',
  responses: { 200: json(credentialsSchema) },
});

export const create = createRoute({
  method: 'post',
  path: '/accounts',
  ...controlOperation,
  operationId: 'createAccount',
  summary: 'Create an isolated account with fresh credentials',
  request: {
    body: {
      required: true,
      content: {
        'application/json': { schema: z.object({ mode: z.enum(['direct', 'checkout']), name: z.string().min(1).max(64).optional() }) },
      },
    },
  },
  responses: { 201: json(accountCredentialsSchema, 'Created'), 400: errors[400] },
});

export type CredentialsRoute = typeof credentials;
export type CreateRoute = typeof create;
