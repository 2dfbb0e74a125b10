/** The customer of a subscription (spec: Sub-objects). `email_address` is required (sandbox decision). */
import { z } from '@hono/zod-openapi';
import { text } from '../schemas.js';

/** E.164: a plus, a non-zero digit, then 6 to 14 more digits. */
const E164 = /^\+[1-9]\d{6,14}$/;

/** A phone number in E.164 international format. */
export const phoneSchema = z
  .string()
  .regex(E164, 'Must be in E.164 international format, e.g. +66812345678')
  .openapi({ example: '+66812345678' });

export const customerSchema = z
  .object({
    display_name: text(255).optional(),
    external_identifier: text(255).optional(),
    first_name: text(255).optional(),
    last_name: text(255).optional(),
    email_address: z.email().openapi({ example: 'jane@example.com' }),
    phone_number: phoneSchema.optional(),
    account_number: text(64).optional(),
  })
  .openapi('SubscriptionCustomer');
