/**
 * Wire schemas of the subscription resource: the POST /v4/subscriptions body with every
 * sub-object (spec: Subscription creation request, Sub-objects, Limits) and the Subscription
 * response object, for validation and for the OpenAPI document. Pure zod; no routes, no I/O.
 *
 * Validation reports every failure at once, each at the exact path of the failing field
 * (`['customer', 'email_address']`), so the HTTP layer can turn issues into `details[]`
 * JSON pointers. Rules the spec leaves "not shown" are sandbox decisions, written next to
 * each field. Conditionally required fields (card data, billing_details, cart_items,
 * browser_info) are reported as `invalid_type` issues, like a missing required field (the
 * input was undefined); other cross-field failures are `custom` issues.
 */
import { z } from '@hono/zod-openapi';
import { isValidExpiry, luhnValid } from '../../domain/card.js';
import { isCurrency } from '../../domain/money.js';
import { MAX_AMOUNT, amountSchema, currencySchema, httpUrlSchema, text } from '../schemas.js';

const CARD_NUMBER_FORMAT = /^\d{12,19}$/;
/** E.164: a plus, a non-zero digit, then 6 to 14 more digits. */
const E164 = /^\+[1-9]\d{6,14}$/;
/** A BCP 47-style language tag: primary subtag of 2–3 letters, then subtags of 1–8 alphanumerics. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const COLOR_DEPTHS = [1, 4, 8, 15, 16, 24, 30, 32, 48] as const;

const isoDateSchema = z.iso.date();
const isoDateTimeSchema = z.iso.datetime({ offset: true });

const nonNegativeAmountSchema = z.number().int().min(0).max(MAX_AMOUNT);

const phoneSchema = z
  .string()
  .regex(E164, 'Must be in E.164 international format, e.g. +66812345678')
  .openapi({ example: '+66812345678' });

/** An ISO 8601 date-time with `Z` or an offset, e.g. `2026-03-01T00:00:00Z`. */
const dateTimeSchema = z.iso
  .datetime({ offset: true, error: 'Must be an ISO 8601 date-time with Z or an offset' })
  .openapi({ example: '2026-03-01T00:00:00.000+00:00' });

/** Customer of a subscription (spec: Sub-objects). `email_address` is required (sandbox decision). */
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

/** The recurring plan (spec: Sub-objects). Allowed values and ranges are sandbox decisions. */
export const planSchema = z
  .object({
    name: text(255),
    currency: currencySchema,
    /** Amount charged for each regular period after the first, in minor units. */
    amount: nonNegativeAmountSchema,
    interval: z.enum(['day', 'week', 'month', 'year']),
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
     * anchor-aligned instant after the start (see `domain/billing-schedule.ts`).
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

/**
 * Payment method kinds (sandbox decision; the spec groups methods without naming them):
 * - `card`: international card schemes; direct mode sends the card fields, checkout mode
 *   collects them on the payment page.
 * - `wallet`: e-wallet apps (Thai e-wallets, Chinese wallet apps), chosen by payment_channel_code.
 * - `qr`: Thai instant bank-transfer QR.
 * - `bank_transfer`: bank transfer.
 * - `mobile_banking`: Thai mobile banking apps.
 * - `instant_payment`: the Brazilian instant payment scheme.
 */
export const paymentMethodTypeSchema = z
  .enum(['card', 'wallet', 'qr', 'bank_transfer', 'mobile_banking', 'instant_payment'])
  .openapi({
    description:
      'card: card schemes (card fields required in direct mode); wallet: e-wallet apps; ' +
      'qr: Thai instant bank-transfer QR; bank_transfer: bank transfer; ' +
      'mobile_banking: Thai mobile banking apps; instant_payment: Brazilian instant payments.',
  });

/**
 * payment_method of the request (spec: Sub-objects), with the card fields of direct mode.
 * Card fields are optional here; `subscriptionCreateSchema` requires them for `type: card`
 * in direct mode.
 */
export const paymentMethodRequestSchema = z
  .object({
    type: paymentMethodTypeSchema,
    payment_channel_code: text(64).optional(),
    redirect_url: httpUrlSchema.optional(),
    webhooks_url: httpUrlSchema.optional().openapi({
      description: 'Receives the payment webhook of every charge of this subscription.',
    }),
    number: z
      .string()
      .regex(CARD_NUMBER_FORMAT, 'Must be 12 to 19 digits')
      .refine((v) => !CARD_NUMBER_FORMAT.test(v) || luhnValid(v), 'Card number fails the Luhn check')
      .optional()
      .openapi({ example: '4111111111111111' }),
    expiration_date: z
      .string()
      .refine(isValidExpiry, 'Must be MM/YY with a month from 01 to 12')
      .optional()
      .openapi({ example: '12/30' }),
    security_code: z
      .string()
      .regex(/^\d{3,4}$/, 'Must be 3 or 4 digits')
      .optional()
      .openapi({ example: '123' }),
    holder_name: text(255).optional(),
  })
  .openapi('SubscriptionPaymentMethodRequest');

/** Postal address of billing_details (spec: Sub-objects); all fields optional strings. */
export const addressSchema = z
  .object({
    city: text(255).optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'Must be a two-letter uppercase country code')
      .optional()
      .openapi({ example: 'TH' }),
    postal_code: text(32).optional(),
    state: text(255).optional(),
    state_code: text(32).optional(),
    house_number_or_name: text(255).optional(),
    line1: text(255).optional(),
    line2: text(255).optional(),
    organization: text(255).optional(),
  })
  .openapi('Address');

/** billing_details (spec: Sub-objects); required for the restricted channel. */
export const billingDetailsSchema = z
  .object({
    first_name: text(255).optional(),
    last_name: text(255).optional(),
    email_address: z.email().optional(),
    phone_number: phoneSchema.optional(),
    address: addressSchema.optional(),
  })
  .openapi('BillingDetails');

/** One line item (spec: Sub-objects). `product_type` values are a sandbox decision. */
export const cartItemSchema = z
  .object({
    name: text(255),
    description: text(255).optional(),
    quantity: z.number().int().min(1).max(MAX_AMOUNT),
    unit_amount: nonNegativeAmountSchema,
    discount_amount: nonNegativeAmountSchema.optional(),
    tax_amount: nonNegativeAmountSchema.optional(),
    external_identifier: text(255).optional(),
    sku: text(255).optional(),
    product_url: httpUrlSchema.optional(),
    image_url: httpUrlSchema.optional(),
    categories: z.array(text(255)).max(100).optional(),
    product_type: z
      .enum([
        'physical',
        'digital',
        'service',
        'gift_card',
        'shipping_fee',
        'discount',
        'surcharge',
        'store_credit',
        'sales_tax',
      ])
      .optional(),
  })
  .openapi('CartItem');

/**
 * browser_info for anti-fraud checks (spec: Sub-objects); required in direct mode.
 * Shared with the transaction schemas. All fields optional; `time_zone_offset` is in minutes
 * (-840 to 840, as JavaScript's getTimezoneOffset), `color_depth` one of the depths browsers
 * report.
 */
export const browserInfoSchema = z
  .object({
    javascript_enabled: z.boolean().optional(),
    java_enabled: z.boolean().optional(),
    language: z
      .string()
      .max(35)
      .regex(LANGUAGE_TAG, 'Must be a language tag such as en or en-US')
      .optional()
      .openapi({ example: 'en-US' }),
    color_depth: z
      .number()
      .int()
      .refine((v) => !Number.isInteger(v) || (COLOR_DEPTHS as readonly number[]).includes(v), `Must be one of ${COLOR_DEPTHS.join(', ')}`)
      .optional()
      .openapi({ enum: [...COLOR_DEPTHS] }),
    screen_height: z.number().int().min(1).max(100_000).optional(),
    screen_width: z.number().int().min(1).max(100_000).optional(),
    time_zone_offset: z.number().int().min(-840).max(840).optional(),
    user_agent: text(2048).optional(),
    accept_header: text(2048).optional(),
    user_device: z.enum(['desktop', 'mobile']).optional(),
  })
  .openapi('BrowserInfo');

/**
 * Free key-value pairs echoed back (sandbox limits, as common payment APIs): at most 50 keys,
 * keys 1 to 40 characters, values strings of at most 500 characters.
 */
export const metadataSchema = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .superRefine((value, ctx) => {
    if (Object.keys(value).length > 50) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'object',
        maximum: 50,
        inclusive: true,
        input: value,
        message: 'metadata may have at most 50 keys',
      });
    }
  }, { when: (payload) => isRecord(payload.value) })
  .openapi('Metadata', { example: { order_ref: 'A-1001' } });

/** Settings that change which fields are required. */
export interface SubscriptionCreateOptions {
  /** billing_details and cart_items are required when payment_channel_code equals this. */
  restrictedChannelCode: string;
  /** Direct API mode: browser_info, and the card fields for `type: card`, are required. */
  directMode: boolean;
}

const subscriptionCreateObject = z.object({
  external_identifier: text(64).openapi({ example: 'sub-2026-0001' }),
  amount: amountSchema.openapi({ description: 'Amount of the first period, in minor units.', example: 1000 }),
  currency: currencySchema,
  customer: customerSchema,
  plan: planSchema,
  payment_method: paymentMethodRequestSchema,
  billing_details: billingDetailsSchema.optional().openapi({
    description: 'Required when payment_method.payment_channel_code is the restricted wallet channel.',
  }),
  cart_items: z.array(cartItemSchema).min(1).max(249).optional().openapi({
    description: 'Subscription line items (1 to 249); required like billing_details.',
  }),
  browser_info: browserInfoSchema.optional().openapi({ description: 'Required in direct API mode.' }),
  trial_end: dateTimeSchema.optional().openapi({ description: 'End of the trial; wins over plan.trial_period_days.' }),
  description: text(255).optional(),
  metadata: metadataSchema.optional(),
});

type RefinementCtx = Parameters<Parameters<typeof subscriptionCreateObject.superRefine>[0]>[1];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function missing(ctx: RefinementCtx, path: string[], expected: 'object' | 'array' | 'string', message: string): void {
  ctx.addIssue({ code: 'invalid_type', expected, input: undefined, path, message });
}

/**
 * Cross-field rules. Runs even when other fields failed (the value may then be partly
 * invalid, so it is read defensively) so that every failure is reported in one response.
 */
function checkCrossFields(body: Record<string, unknown>, ctx: RefinementCtx, options: SubscriptionCreateOptions): void {
  const plan = isRecord(body.plan) ? body.plan : {};
  const method = isRecord(body.payment_method) ? body.payment_method : {};

  const currency = body.currency;
  const planCurrency = plan.currency;
  if (
    typeof currency === 'string' &&
    typeof planCurrency === 'string' &&
    isCurrency(currency) &&
    isCurrency(planCurrency) &&
    currency !== planCurrency
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['plan', 'currency'],
      input: planCurrency,
      message: `plan.currency (${planCurrency}) must equal currency (${currency})`,
    });
  }

  if (options.directMode && method.type === 'card') {
    for (const field of ['number', 'expiration_date', 'security_code'] as const) {
      if (method[field] === undefined) {
        missing(ctx, ['payment_method', field], 'string', `payment_method.${field} is required for card payments in direct mode`);
      }
    }
  }

  if (method.payment_channel_code === options.restrictedChannelCode) {
    const channel = options.restrictedChannelCode;
    if (body.billing_details === undefined) {
      missing(ctx, ['billing_details'], 'object', `billing_details is required for payment channel ${channel}`);
    }
    if (body.cart_items === undefined) {
      missing(ctx, ['cart_items'], 'array', `cart_items is required for payment channel ${channel}`);
    }
  }

  if (options.directMode && body.browser_info === undefined) {
    missing(ctx, ['browser_info'], 'object', 'browser_info is required in direct API mode');
  }
}

const schemaCache = new Map<string, ReturnType<typeof buildSubscriptionCreateSchema>>();

function buildSubscriptionCreateSchema(options: SubscriptionCreateOptions) {
  return subscriptionCreateObject
    .superRefine((body, ctx) => checkCrossFields(body, ctx, options), {
      when: (payload) => isRecord(payload.value),
    })
    .openapi('SubscriptionCreate');
}

/**
 * The POST /v4/subscriptions body schema for one configuration: the restricted wallet
 * channel code (billing_details and cart_items become required) and the account's mode
 * (direct: browser_info and, for `type: card`, number, expiration_date and security_code
 * become required; checkout collects card data on the payment page). Unknown fields are
 * stripped, not refused. Schemas are cached per options, so calling this per request is cheap.
 */
export function subscriptionCreateSchema(options: SubscriptionCreateOptions): ReturnType<typeof buildSubscriptionCreateSchema> {
  const key = JSON.stringify([options.restrictedChannelCode, options.directMode]);
  let schema = schemaCache.get(key);
  if (!schema) {
    schema = buildSubscriptionCreateSchema(options);
    schemaCache.set(key, schema);
  }
  return schema;
}

/** A validated subscription creation body, with defaults applied (interval_time, payment_attempts). */
export type SubscriptionCreate = z.infer<typeof subscriptionCreateObject>;
/** The subscription creation body as a client sends it (before defaults). */
export type SubscriptionCreateInput = z.input<typeof subscriptionCreateObject>;

/** plan as echoed in a Subscription: the request's plan with its defaults filled in. */
export const planResponseSchema = z
  .object({
    name: z.string(),
    currency: z.string(),
    amount: z.number().int(),
    interval: z.enum(['day', 'week', 'month', 'year']),
    interval_time: z.number().int(),
    trial_period_days: z.number().int().optional(),
    billing_cycle_anchor: z.string().optional(),
    payment_attempts: z.number().int(),
  })
  .openapi('SubscriptionPlanResponse');

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

/** The Subscription response body (spec: Subscription (response body)). */
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
