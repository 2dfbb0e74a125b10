/**
 * The POST /v4/subscriptions body (spec: Subscription creation request, Limits), one schema
 * per account mode and `--restricted-channel-code`, with every rule in it:
 * - fields and sub-objects, each failure at the exact path of the failing field;
 * - direct mode: browser_info required, and the payment method rule (a card's number,
 *   expiration_date and security_code all or none; other kinds their payment_channel_code);
 *   the security code's length by scheme;
 * - checkout mode: no card number or security code (PCI);
 * - the payment-method catalogue: a known payment_channel_code taking `currency` (the
 *   restricted channel is accepted too);
 * - the restricted channel: billing_details and cart_items required;
 * - plan.currency equals currency;
 * - with the sandbox clock (`now`): trial_end after it.
 * Every rule runs even when others failed, so one 400 lists every failure.
 */
import { z } from '@hono/zod-openapi';
import { isoTimestamp } from '../../core/clock/clock.js';
import { isCurrency } from '../../core/domain/money.js';
import { amountSchema, currencySchema, text } from '../../core/http/schemas.js';
import { billingDetailsSchema, cartItemSchema } from './billing-schema.js';
import { browserInfoSchema } from '../../core/http/wire/browser-info.js';
import { customerSchema } from '../../core/http/wire/customer.js';
import { isRecord, missing, onAnyObject, type IssueSink } from '../../core/http/wire/issues.js';
import { metadataSchema } from '../../core/http/wire/metadata.js';
import {
  CHECKOUT_CARD_DATA_RULE,
  channelRule,
  channelTypeRule,
  checkoutCardDataRule,
  directPaymentMethodRule,
  paymentMethodRequestSchema,
  securityCodeRule,
} from '../payment-methods/index.js';

/** What direct mode asks of a subscription's payment method. */
const DIRECT_SUBSCRIPTION_METHOD_RULE =
  'Direct mode: type card takes number, expiration_date and security_code (all or none: none charges the default test card, Visa 4242); any other type needs payment_channel_code.';
import { planSchema } from './plan-schema.js';

/** An ISO 8601 date-time with `Z` or an offset, e.g. `2026-03-01T00:00:00Z`. */
const dateTimeSchema = z.iso
  .datetime({ offset: true, error: 'Must be an ISO 8601 date-time with Z or an offset' })
  .openapi({ example: '2026-03-01T00:00:00.000+00:00' });

/** Settings that change which fields are required. */
export interface SubscriptionCreateOptions {
  /** billing_details and cart_items are required when payment_channel_code equals this. */
  restrictedChannelCode: string;
  /** Direct API mode: browser_info, and the card fields for `type: card`, are required. */
  directMode: boolean;
  /** The sandbox clock in epoch ms: trial_end must lie after it (not checked when absent). */
  nowMs?: number;
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
  trial_end: dateTimeSchema
    .optional()
    .openapi({ description: 'End of the trial, after the sandbox clock; wins over plan.trial_period_days.' }),
  description: text(255).optional(),
  metadata: metadataSchema.optional(),
});

/** Direct mode: browser_info is required. */
const directObject = subscriptionCreateObject.extend({
  browser_info: browserInfoSchema.openapi({ description: 'Required in direct API mode (anti-fraud checks).' }),
});

/** plan.currency must equal currency (when both are currencies). */
function sameCurrency(body: Record<string, unknown>, ctx: IssueSink): void {
  const plan = isRecord(body.plan) ? body.plan : {};
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
}

/** The restricted channel needs billing_details and cart_items. */
function restrictedChannelRule(body: Record<string, unknown>, ctx: IssueSink, channel: string): void {
  const method = isRecord(body.payment_method) ? body.payment_method : {};
  if (method.payment_channel_code !== channel) return;
  if (body.billing_details === undefined)
    missing(ctx, ['billing_details'], 'object', `billing_details is required for payment channel ${channel}`);
  if (body.cart_items === undefined) missing(ctx, ['cart_items'], 'array', `cart_items is required for payment channel ${channel}`);
}

/** trial_end must lie after `nowMs` (the sandbox clock). */
function trialEndRule(body: Record<string, unknown>, ctx: IssueSink, nowMs: number): void {
  const trialEnd = body.trial_end;
  if (typeof trialEnd !== 'string' || !dateTimeSchema.safeParse(trialEnd).success) return;
  if (Date.parse(trialEnd) > nowMs) return;
  ctx.addIssue({
    code: 'custom',
    path: ['trial_end'],
    input: trialEnd,
    message: `Must be in the future; the sandbox clock is at ${isoTimestamp(nowMs)}`,
  });
}

function buildSchema(restrictedChannelCode: string, directMode: boolean) {
  const object = directMode ? directObject : subscriptionCreateObject;
  return object
    .superRefine((body, ctx) => {
      const raw = body as Record<string, unknown>;
      sameCurrency(raw, ctx);
      if (directMode) {
        directPaymentMethodRule(raw, ctx, true);
        securityCodeRule(raw, ctx);
      } else checkoutCardDataRule(raw, ctx);
      channelRule(raw, ctx, restrictedChannelCode);
      channelTypeRule(raw, ctx, restrictedChannelCode);
      restrictedChannelRule(raw, ctx, restrictedChannelCode);
    }, onAnyObject)
    .openapi({
      title: directMode ? 'Direct mode' : 'Checkout mode',
      description:
        (directMode
          ? `${DIRECT_SUBSCRIPTION_METHOD_RULE} The security code is 4 digits for American Express, 3 for other schemes. `
          : `${CHECKOUT_CARD_DATA_RULE} `) +
        'payment_method.payment_channel_code must be in the catalogue (GET /_sandbox/payment-methods), take the currency and agree with payment_method.type (card only with CARD). ' +
        `billing_details and cart_items are required when payment_method.payment_channel_code is ${restrictedChannelCode}. ` +
        'plan.currency must equal currency; trial_end must lie after the sandbox clock.',
    });
}

/** The schema of one mode and channel: the checkout one's type (browser_info optional) covers both. */
export type SubscriptionCreateSchema = ReturnType<typeof buildSchema>;

const cache = new Map<string, SubscriptionCreateSchema>();

/**
 * The POST /v4/subscriptions body schema for one account mode and restricted channel (cached),
 * with the trial_end rule on the sandbox clock when `nowMs` is given. Unknown fields are
 * stripped, not refused.
 */
export function subscriptionCreateSchema(options: SubscriptionCreateOptions): SubscriptionCreateSchema {
  const key = JSON.stringify([options.restrictedChannelCode, options.directMode]);
  let schema = cache.get(key);
  if (!schema) {
    schema = buildSchema(options.restrictedChannelCode, options.directMode);
    cache.set(key, schema);
  }
  const { nowMs } = options;
  return nowMs === undefined
    ? schema
    : schema.superRefine((body, ctx) => trialEndRule(body as Record<string, unknown>, ctx, nowMs), onAnyObject);
}

/**
 * The body as the OpenAPI document shows it: the schemas that validate, one per mode
 * (`anyOf`: direct accounts use the first, checkout accounts the second).
 */
export function subscriptionCreateDocument(restrictedChannelCode: string) {
  return z
    .union([
      subscriptionCreateSchema({ restrictedChannelCode, directMode: true }),
      subscriptionCreateSchema({ restrictedChannelCode, directMode: false }),
    ])
    .openapi('SubscriptionCreate', {
      description: 'One schema per account mode: direct-mode accounts send the first, checkout-mode accounts the second.',
    });
}

/** A validated subscription creation body, with defaults applied (interval_time, payment_attempts). */
export type SubscriptionCreate = z.infer<typeof subscriptionCreateObject>;
/** The subscription creation body as a client sends it (before defaults). */
export type SubscriptionCreateInput = z.input<typeof subscriptionCreateObject>;
