/**
 * Response schemas of the control API's accounts: an account's credentials, and every
 * account's with the webhook key (the published demo credentials).
 */
import { z } from '@hono/zod-openapi';
import { webhookKeyFormsSchema } from '../webhooks/index.js';

/** An account's credentials. */
export const accountCredentialsSchema = z
  .object({
    name: z.string(),
    mode: z.enum(['direct', 'checkout']),
    account_id: z.string(),
    api_key: z.string(),
    jwt_kid: z.string(),
    jwt_private_key_pem: z.string(),
  })
  .openapi('AccountCredentials');

export const credentialsSchema = z
  .object({
    accounts: z.array(accountCredentialsSchema),
    webhook_public_key_pem: z.string(),
    webhook_public_key: webhookKeyFormsSchema,
    notification_url: z
      .string()
      .nullable()
      .openapi({ description: 'The default webhook target (`--notification-url`), or null when none is set' }),
  })
  .openapi('Credentials');

export type AccountCredentials = z.infer<typeof accountCredentialsSchema>;
export type Credentials = z.infer<typeof credentialsSchema>;
