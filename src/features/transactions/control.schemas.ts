/**
 * Response schemas of the control API's transactions: the /v4 record with its refunds, the
 * actions legal now, and (in detail) its scenario rule and webhook deliveries; the webhook
 * faults a merchant scripts on one.
 */
import { z } from '@hono/zod-openapi';
import { DELIVERY_FAULTS } from '../../core/domain/entities.js';
import { amountSchema } from '../../core/http/schemas.js';
import { pageQuerySchema } from '../../core/http/pagination.js';
import { refundSchema, transactionSchema } from './transactions.schemas.js';
import { deliverySchema } from '../webhooks/index.js';

/** The query of `GET /_sandbox/transactions`: the account, and the page. */
export const controlTransactionListQuerySchema = pageQuerySchema.extend({ account_id: z.string() });

/** The body of `POST /_sandbox/transactions/{id}/refund`: the amount (default: the remainder) and a reason. */
export const controlRefundRequestSchema = z.object({ amount: amountSchema.optional(), reason: z.string().max(255).optional() });

/** What can be done to a transaction now: settle/fail while PENDING, refund while SUCCEEDED with a remainder. */
export const transactionActionSchema = z.enum(['settle', 'fail', 'refund']);

/** A transaction as the control API shows it: the /v4 record, its refunds, and what can be done to it now. */
export const controlTransactionSchema = transactionSchema
  .extend({
    refunds: z.array(refundSchema).openapi({ description: 'Every refund of the transaction, oldest first.' }),
    refundable_amount: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'What is left to refund, in minor units: amount - refunded_amount for a SUCCEEDED transaction, else 0.' }),
    allowed_actions: z.array(transactionActionSchema).openapi({
      description: 'The control actions legal now: ["settle","fail"] while PENDING, ["refund"] while SUCCEEDED with a remainder, else [].',
    }),
  })
  .openapi('ControlTransaction');

/** A transaction with the sandbox's view of it: the matching scenario rule and its webhook deliveries. */
export const transactionDetailSchema = controlTransactionSchema
  .extend({
    scenario_rule: z.string().nullable().openapi({ description: 'The "scenario/rule" that decided its outcome, if any.' }),
    deliveries: z.array(deliverySchema),
  })
  .openapi('ControlTransactionDetail');

export type TransactionAction = z.infer<typeof transactionActionSchema>;
export type ControlTransaction = z.infer<typeof controlTransactionSchema>;
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;
export type Refund = z.infer<typeof refundSchema>;

/** `{ "fault": "duplicate" | "out_of_order" | "delayed" | "bad_signature", "seconds"?: n }`. */
export const webhookFaultRequestSchema = z
  .object({
    fault: z.enum(DELIVERY_FAULTS).openapi({
      description:
        'duplicate: the payment webhook once more; delayed: once more, `seconds` from now on the sandbox clock; bad_signature: once more with a signature that does not match the body (attempted once); out_of_order: the latest refund webhook, then the payment webhook, in that order.',
    }),
    seconds: z
      .number()
      .int()
      .min(1)
      .max(30 * 24 * 60 * 60)
      .optional()
      .openapi({ description: 'For delayed: sandbox-clock seconds until it is sent.' }),
  })
  .refine((body) => body.fault !== 'delayed' || body.seconds !== undefined, { message: 'A delayed fault needs seconds', path: ['seconds'] })
  .openapi('WebhookFaultRequest');

export const webhookFaultResultSchema = z.object({ deliveries: z.array(deliverySchema) }).openapi('WebhookFaultResult');

/** A webhook fault the control API takes. */
export type WebhookFaultRequest = z.infer<typeof webhookFaultRequestSchema>;
