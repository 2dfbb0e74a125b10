/** The Subscription response body (spec: Subscription (response body)) and its payment_method. */
import { z } from '@hono/zod-openapi';
import { customerSchema } from '../../core/http/wire/customer.js';
import { paymentMethodTypeSchema } from '../payment-methods/index.js';
import { planResponseSchema } from './plan-schema.js';

/** payment_method of a Subscription (spec: Sub-objects, response shape). */
export const paymentMethodResponseSchema = z
  .object({
    type: paymentMethodTypeSchema,
    card: z
      .object({
        last4: z.string().openapi({ example: '1111' }),
        expiration_date: z.string().openapi({ example: '12/30', description: 'MM/YY' }),
      })
      .optional(),
  })
  .openapi('SubscriptionPaymentMethod');

const timestampSchema = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000+00:00' });

export const subscriptionResponseSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    object: z.literal('subscription'),
    external_identifier: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    created: timestampSchema,
    customer: customerSchema,
    plan: planResponseSchema,
    payment_method: paymentMethodResponseSchema,
    status: z.enum(['failed', 'active', 'past_due', 'cancelled']),
    current_period_start: timestampSchema,
    current_period_end: timestampSchema,
    next_billing_date: z.string().openapi({ format: 'date', example: '2026-12-22', description: 'YYYY-MM-DD' }),
    trial_start: timestampSchema.nullable(),
    trial_end: timestampSchema.nullable(),
    metadata: z.record(z.string(), z.string()).optional(),
    payment_url_link: z.string().nullable().optional().openapi({
      description: 'Payment page URL; present in checkout mode or when extra payment steps are needed.',
    }),
  })
  .openapi('Subscription');

/** A Subscription as returned by the API. */
export type Subscription = z.infer<typeof subscriptionResponseSchema>;
