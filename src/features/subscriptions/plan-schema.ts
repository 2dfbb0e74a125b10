/**
 * The recurring plan of a subscription (spec: Sub-objects), as requested and as echoed back
 * with its defaults filled in. Allowed values and ranges are sandbox decisions.
 */
import { z } from '@hono/zod-openapi';
import { PLAN_INTERVALS } from '../scenarios/index.js';
import { MAX_AMOUNT, currencySchema, text } from '../../core/http/schemas.js';

const isoDateSchema = z.iso.date();
const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** An amount in minor units that may be 0 (a free period, a discount). */
export const nonNegativeAmountSchema = z.number().int().min(0).max(MAX_AMOUNT);

export const planSchema = z
  .object({
    name: text(255),
    currency: currencySchema,
    /** Amount charged for each regular period after the first, in minor units. */
    amount: nonNegativeAmountSchema,
    interval: z.enum(PLAN_INTERVALS),
    interval_time: z.number().int().min(1).max(365).default(1).openapi({
      description: 'Number of intervals in one billing period (3 with interval month = quarterly).',
    }),
    trial_period_days: z.number().int().min(0).max(730).optional().openapi({
      description: 'Free trial in whole days from creation; ignored when trial_end is sent.',
    }),
    /**
     * Renewals align to this instant's day of month and time of day (UTC; a bare date means
     * 00:00 UTC). An anchor after the start ends the first period at the anchor, then full
     * periods follow from it; an anchor in the past aligns the first renewal to the next
     * anchor-aligned instant after the start (see `billing-schedule.ts`).
     */
    billing_cycle_anchor: z
      .string()
      .refine(
        (v) => isoDateSchema.safeParse(v).success || isoDateTimeSchema.safeParse(v).success,
        'Must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset',
      )
      .optional()
      .openapi({
        example: '2026-01-31T09:00:00Z',
        description:
          'ISO 8601 date or date-time. Renewals align to its day of month and time of day (UTC); ' +
          'the first period is shortened to end at the next aligned instant.',
      }),
    payment_attempts: z.number().int().min(1).max(10).default(3).openapi({
      description: 'Charge attempts for one renewal before the subscription is cancelled.',
    }),
  })
  .openapi('SubscriptionPlan');

/** plan as echoed in a Subscription: the request's plan with its defaults filled in. */
export const planResponseSchema = z
  .object({
    name: z.string(),
    currency: z.string(),
    amount: z.number().int(),
    interval: z.enum(PLAN_INTERVALS),
    interval_time: z.number().int(),
    trial_period_days: z.number().int().optional(),
    billing_cycle_anchor: z.string().optional(),
    payment_attempts: z.number().int(),
  })
  .openapi('SubscriptionPlanResponse');
