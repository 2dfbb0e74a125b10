/**
 * Wire schemas of transactions and refunds: the POST bodies (validation + OpenAPI) and the
 * records the endpoints return. The create body has one schema per account mode, with the
 * mode rules in it (direct: payment_method and browser_info, and the card fields or the
 * channel code; checkout: return_url); the OpenAPI document shows both (`anyOf`, the first for direct accounts).
 */
import { z } from '@hono/zod-openapi';
import { amountSchema, currencySchema, httpUrlSchema, requiredHttpUrlSchema, text } from '../../core/http/schemas.js';
import { browserInfoSchema } from '../../core/http/wire/browser-info.js';
import { onAnyObject } from '../../core/http/wire/issues.js';
import { metadataSchema } from '../../core/http/wire/metadata.js';
import {
  CHECKOUT_CARD_DATA_RULE,
  DIRECT_PAYMENT_METHOD_RULE,
  channelRule,
  channelTypeRule,
  checkoutCardDataRule,
  directPaymentMethodRule,
  paymentMethodRequestSchema,
  securityCodeRule,
} from '../payment-methods/index.js';

/** The create body's fields, every one optional that some mode does not need. */
const transactionCreateObject = z.object({
  amount: amountSchema,
  currency: currencySchema,
  description: text(255).optional(),
  customer: z
    .object({
      email: z.email({ error: 'Must be an email address' }).optional().openapi({ example: 'jane@example.com' }),
      name: text(255).optional().openapi({ example: 'Jane Doe' }),
    })
    .optional(),
  return_url: httpUrlSchema
    .optional()
    .openapi({ description: 'Where the payment page sends the customer after paying (required in checkout mode).' }),
  cancel_url: httpUrlSchema
    .optional()
    .openapi({ description: 'Where the payment page sends the customer after cancelling (default: return_url).' }),
  external_identifier: text(64)
    .optional()
    .openapi({ description: 'Sandbox extension: merchant reference, the webhook merchant_transaction_id.' }),
  notification_url: httpUrlSchema.optional().openapi({ description: 'Sandbox extension: webhook target for this transaction.' }),
  metadata: metadataSchema.optional(),
  payment_method: paymentMethodRequestSchema
    .optional()
    .openapi({ description: 'Direct mode: the card (number, expiration_date MM/YY, security_code) or a wallet/QR method.' }),
  browser_info: browserInfoSchema.optional().openapi({ description: 'Direct mode: required for anti-fraud checks.' }),
});

/** Direct mode: the payment method and browser_info are required; a card needs its fields, other kinds their channel code. */
const directTransactionCreateSchema = transactionCreateObject
  .extend({
    payment_method: paymentMethodRequestSchema.openapi({
      description: 'The card (number, expiration_date MM/YY, security_code) or a wallet/QR method.',
    }),
    browser_info: browserInfoSchema.openapi({ description: 'Required for anti-fraud checks.' }),
  })
  .superRefine((body, ctx) => {
    const raw = body as Record<string, unknown>;
    directPaymentMethodRule(raw, ctx);
    securityCodeRule(raw, ctx);
    channelRule(raw, ctx);
    channelTypeRule(raw, ctx);
  }, onAnyObject)
  .openapi({
    title: 'Direct mode',
    description: `${DIRECT_PAYMENT_METHOD_RULE} The security code is 4 digits for American Express, 3 for other schemes. payment_channel_code must be in the catalogue (GET /_sandbox/payment-methods), take the currency and agree with payment_method.type (card only with CARD; a QR, wallet or banking-app channel only with qr, wallet or mobile_banking).`,
  });

/** Checkout mode: return_url is required (the payment page sends the customer back there). */
const checkoutTransactionCreateSchema = transactionCreateObject
  .extend({
    return_url: requiredHttpUrlSchema('return_url is required in checkout mode: the payment page sends the customer back there').openapi({
      description: 'Where the payment page sends the customer after paying.',
    }),
  })
  .superRefine((body, ctx) => {
    const raw = body as Record<string, unknown>;
    checkoutCardDataRule(raw, ctx);
    channelRule(raw, ctx);
    channelTypeRule(raw, ctx);
  }, onAnyObject)
  .openapi({
    title: 'Checkout mode',
    description: `${CHECKOUT_CARD_DATA_RULE} payment_method.payment_channel_code (catalogue, taking the currency, agreeing with payment_method.type) picks what the payment page acts out; browser_info is ignored.`,
  });

/** The POST /v4/transactions body schema of an account mode. */
export function transactionCreateSchema(
  mode: 'direct' | 'checkout',
): z.ZodType<TransactionCreate, z.input<typeof transactionCreateObject>> {
  return mode === 'direct' ? directTransactionCreateSchema : checkoutTransactionCreateSchema;
}

/** The create body as the OpenAPI document shows it: the schemas that validate, one per mode. */
export const transactionCreateDocument = z
  .union([directTransactionCreateSchema, checkoutTransactionCreateSchema])
  .openapi('TransactionCreate', {
    description: 'One schema per account mode: direct-mode accounts send the first, checkout-mode accounts the second.',
  });

/** A validated transaction create body (the fields of every mode). */
export type TransactionCreate = z.infer<typeof transactionCreateObject>;

export const transactionSchema = z
  .object({
    type: z.literal('transaction'),
    id: z.uuid(),
    merchant_account_id: z.string(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
    amount: z.number().int(),
    currency: z.string(),
    refunded_amount: z.number().int(),
    description: z.string().nullable(),
    customer: z.object({ email: z.string().optional(), name: z.string().optional() }).nullable(),
    external_identifier: z.string().nullable(),
    notification_url: z.string().nullable(),
    return_url: z.string().nullable(),
    cancel_url: z.string().nullable(),
    metadata: z.record(z.string(), z.string()).nullable(),
    payment_method: z
      .object({
        type: z.string(),
        payment_channel_code: z.string().optional(),
        card: z
          .object({ last4: z.string(), expiration_date: z.string(), brand: z.string(), holder_name: z.string().optional() })
          .optional(),
        qr_payload: z.string().optional().openapi({
          description: 'PromptPay and Pix: the EMVCo merchant-presented QR payload (valid CRC) to render for the customer.',
        }),
      })
      .nullable(),
    payment_url: z.string().nullable().openapi({
      description:
        'The sandbox-hosted payment page of a payment that waits for the customer: checkout mode, and direct-mode QR, wallet and banking-app channels.',
    }),
    decline_reason: z.enum(['expired_card', 'no_payment_method']).nullable().openapi({
      description:
        'Sandbox extension: why the payment was declined (expired_card; no_payment_method: the first charge of a trial subscription whose customer never completed its payment page), else null.',
    }),
    subscription_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Transaction');

export const refundCreateSchema = z
  .object({
    amount: amountSchema.optional().openapi({ description: 'Default: the whole remainder.' }),
    reason: text(255).optional(),
    external_identifier: text(64).optional(),
  })
  .openapi('RefundCreate');

export const refundSchema = z
  .object({
    type: z.literal('refund'),
    id: z.uuid(),
    transaction_id: z.uuid(),
    status: z.literal('SUCCESS'),
    amount: z.number().int(),
    currency: z.string(),
    reason: z.string().nullable(),
    external_identifier: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Refund');
