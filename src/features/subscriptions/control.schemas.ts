/**
 * Response schemas of the control API's subscriptions: the /v4 record with its charges, the
 * actions legal now and its next charge time.
 */
import { z } from '@hono/zod-openapi';
import { subscriptionResponseSchema } from './subscription-response-schema.js';
import { controlTransactionSchema } from '../transactions/index.js';

/** A timestamp as the API writes it. */
const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000+00:00' });

export const subscriptionActionSchema = z.enum(['cancel']);

/** A subscription as the control API shows it: the /v4 record, its charges, what can be done to it, and when it is charged next. */
export const controlSubscriptionSchema = subscriptionResponseSchema
  .extend({
    charges: z.array(controlTransactionSchema).openapi({ description: 'The transactions that charged it, oldest first.' }),
    allowed_actions: z.array(subscriptionActionSchema).openapi({ description: '["cancel"] while active or past_due, else [].' }),
    next_charge_at: timestamp.nullable().openapi({
      description: 'When the sandbox charges it next on its clock (a renewal or a retry); null when it will not be charged again.',
    }),
  })
  .openapi('ControlSubscription');

export type SubscriptionAction = z.infer<typeof subscriptionActionSchema>;
export type ControlSubscription = z.infer<typeof controlSubscriptionSchema>;
