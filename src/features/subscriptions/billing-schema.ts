/**
 * billing_details and cart_items (spec: Sub-objects), which the restricted wallet channel
 * requires (`--restricted-channel-code`).
 */
import { z } from '@hono/zod-openapi';
import { MAX_AMOUNT, httpUrlSchema, text } from '../../core/http/schemas.js';
import { phoneSchema } from '../../core/http/wire/customer.js';
import { nonNegativeAmountSchema } from './plan-schema.js';

/** Postal address of billing_details; all fields optional strings. */
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

export const billingDetailsSchema = z
  .object({
    first_name: text(255).optional(),
    last_name: text(255).optional(),
    email_address: z.email().optional(),
    phone_number: phoneSchema.optional(),
    address: addressSchema.optional(),
  })
  .openapi('BillingDetails');

/** One line item. `product_type` values are a sandbox decision. */
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
      .enum(['physical', 'digital', 'service', 'gift_card', 'shipping_fee', 'discount', 'surcharge', 'store_credit', 'sales_tax'])
      .optional(),
  })
  .openapi('CartItem');
