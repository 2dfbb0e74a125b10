/**
 * Wire schemas of transactions and refunds: the POST bodies (validation + OpenAPI) and the
 * records the endpoints return. Mode rules (card and browser_info in direct mode, return_url
 * in checkout mode) depend on the account and live in `domain/transactions.ts`.
 */
import { z } from '@hono/zod-openapi';
import { amountSchema, currencySchema, httpUrlSchema, text } from '../schemas.js';
import { browserInfoSchema, metadataSchema, paymentMethodRequestSchema } from './subscriptions.schemas.js';

export const transactionCreateSchema = z
  .object({
    amount: amountSchema,
    currency: currencySchema,
    description: text(255).optional(),
    customer: z
      .object({
        email: z.email({ error: 'Must be an email address' }).optional().openapi({ example: 'jane@example.com' }),
        name: text(255).optional().openapi({ example: 'Jane Doe' }),
      })
      .optional(),
    return_url: httpUrlSchema.optional().openapi({ description: 'Where the payment page sends the customer after paying (required in checkout mode).' }),
    cancel_url: httpUrlSchema.optional().openapi({ description: 'Where the payment page sends the customer after cancelling (default: return_url).' }),
    external_identifier: text(64).optional().openapi({ description: 'Sandbox extension: merchant reference, the webhook merchant_transaction_id.' }),
    notification_url: httpUrlSchema.optional().openapi({ description: 'Sandbox extension: webhook target for this transaction.' }),
    metadata: metadataSchema.optional(),
    payment_method: paymentMethodRequestSchema.optional().openapi({ description: 'Direct mode: the card (number, expiration_date MM/YY, security_code) or a wallet/QR method.' }),
    browser_info: browserInfoSchema.optional().openapi({ description: 'Direct mode: required for anti-fraud checks.' }),
  })
  .openapi('TransactionCreate');

export type TransactionCreate = z.infer<typeof transactionCreateSchema>;

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
        card: z.object({ last4: z.string(), expiration_date: z.string(), brand: z.string(), holder_name: z.string().optional() }).optional(),
      })
      .nullable(),
    payment_url: z.string().nullable().openapi({ description: 'Checkout mode: the sandbox-hosted payment page.' }),
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
