/**
 * The payment and refund webhooks as OpenAPI 3.1 `webhooks` (spec "Events"
 * "Webhooks"): their bodies, the `timestamp`, `timezone` and `signature` headers, and the
 * acknowledgement the merchant must answer. The bodies are built by `features/transactions/webhook-bodies.ts`;
 * these schemas describe the default (spec) format for the document (a test checks real
 * bodies against them); the event format (`--webhook-format event`) is named, not described.
 */
import { z } from '@hono/zod-openapi';
import type { OpenAPIHono } from '@hono/zod-openapi';

type OpenAPIRegistry = OpenAPIHono['openAPIRegistry'];

const compactDate = z
  .string()
  .regex(/^\d{8}$/)
  .openapi({ description: "YYYYMMDD in the `timezone` header's zone", example: '20261122' });
const compactTime = z
  .string()
  .regex(/^\d{14}$/)
  .openapi({ description: "YYYYMMDDHHMMSS in the `timezone` header's zone", example: '20261122100005' });
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .openapi({ description: 'ISO 4217 currency code', example: 'USD' });
const decimal = (example: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .openapi({ description: "Decimal string in major units (by the currency's ISO 4217 exponent)", example });

/** Body of the payment webhook (scope webhooks.payment), as `paymentWebhookBody` builds it. */
export const paymentWebhookSchema = z
  .object({
    ll_transaction_id: z
      .string()
      .openapi({ description: "The sandbox's payment id (the transaction id)", example: '7099948d-7286-47e4-aad8-b68f7eb44591' }),
    merchant_transaction_id: z
      .string()
      .openapi({ description: "The merchant's external_identifier of the payment", example: 'order-1001' }),
    payment_data: z.object({
      account_date: compactDate,
      exchange_rate: z
        .string()
        .regex(/^\d+\.\d{6}$/)
        .openapi({
          description:
            'Payment currency to settlement currency, six decimals: "1.000000" unless --settlement-currency names another currency with a sandbox rate',
          example: '1.000000',
        }),
      payment_amount: decimal('10.50'),
      payment_currency_code: currency,
      payment_status: z.enum(['SUCCEEDED', 'FAILED']),
      payment_time: compactTime,
      settlement_amount: decimal('10.50'),
      settlement_currency_code: currency,
    }),
  })
  .openapi('PaymentWebhook');

/** Body of the refund webhook (scope webhooks.refund), as `refundWebhookBody` builds it. */
export const refundWebhookSchema = z
  .object({
    ll_transaction_id: z.string().openapi({ description: "The sandbox's refund id", example: '3b1f6f0e-2c7a-4d1e-9a55-6f0d1c2b3a41' }),
    merchant_transaction_id: z
      .string()
      .openapi({ description: "The refund's external_identifier, or its id when it has none", example: 'refund-1001' }),
    original_transaction_id: z.string().openapi({ description: "The payment's external_identifier", example: 'order-1001' }),
    refund_data: z.object({
      account_date: compactDate,
      actual_refund_amount: z.number().int().min(0).openapi({ description: 'Minor units', example: 500 }),
      actual_refund_currency_code: currency,
      reason: z.string().openapi({ example: 'Customer request' }),
      refund_amount: z.number().int().min(0).openapi({ description: 'Minor units', example: 500 }),
      refund_currency_code: currency,
      refund_status: z.literal('SUCCESS'),
      refund_time: compactTime,
      settlement_currency_code: currency,
    }),
  })
  .openapi('RefundWebhook');

/** What the merchant answers to acknowledge a delivery. */
export const webhookAckSchema = z
  .object({
    code: z.literal('200').openapi({ example: '200' }),
    message: z.literal('SUCCESS').openapi({ example: 'SUCCESS' }),
  })
  .openapi('WebhookAck');

/** The headers of every delivery (`webhooks/signing.ts`). */
const webhookHeaderParameters = [
  {
    name: 'timestamp',
    in: 'header' as const,
    required: true,
    description: 'When this attempt was signed: YYYYMMDDHHMMSS in the zone of the `timezone` header (--webhook-timezone).',
    schema: { type: 'string' as const, pattern: '^\\d{14}$' },
    example: '20261122100005',
  },
  {
    name: 'timezone',
    in: 'header' as const,
    required: true,
    description: "IANA time-zone name of `timestamp` and of the body's dates.",
    schema: { type: 'string' as const },
    example: 'UTC',
  },
  {
    name: 'signature',
    in: 'header' as const,
    required: true,
    description:
      'Base64 RSASSA-PKCS1-v1_5 SHA-256 signature of the exact raw body bytes, verifiable with the webhook public key (`GET /_sandbox/webhook-public-key`); with `--webhook-signing hmac`, the hex HMAC-SHA256 of the raw body with `--webhook-secret`.',
    schema: { type: 'string' as const },
  },
];

const DELIVERY =
  "The body is the spec's (the default, `--webhook-format spec`); `--webhook-format event` sends the event shape the README describes instead, with the same headers. " +
  'POSTed to the transaction\'s `notification_url` (else a subscription\'s `payment_method.webhooks_url`, else `--notification-url`). Delivered means a 2xx answer with exactly `{"code":"200","message":"SUCCESS"}`; anything else is retried on the sandbox clock after 10 s, 20 s, 40 s, ... (at most 6 h apart, 16 attempts). Handlers must treat repeated deliveries idempotently.';

const ackResponses = {
  200: { description: 'Acknowledged: the delivery is done', content: { 'application/json': { schema: webhookAckSchema } } },
  '4XX': { description: 'Not acknowledged: the sandbox retries the delivery' },
  '5XX': { description: 'Not acknowledged: the sandbox retries the delivery' },
};

/** Registers the two webhooks under the document's `webhooks`. */
export function registerWebhooks(registry: OpenAPIRegistry): void {
  registry.registerWebhook({
    method: 'post',
    path: 'payment',
    operationId: 'paymentWebhook',
    tags: ['Webhooks'],
    summary: 'Payment webhook: a payment reached SUCCEEDED or FAILED',
    description: `Scope webhooks.payment. ${DELIVERY}`,
    security: [],
    parameters: webhookHeaderParameters,
    request: { body: { required: true, content: { 'application/json': { schema: paymentWebhookSchema } } } },
    responses: ackResponses,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'refund',
    operationId: 'refundWebhook',
    tags: ['Webhooks'],
    summary: 'Refund webhook: a refund succeeded',
    description: `Scope webhooks.refund. ${DELIVERY}`,
    security: [],
    parameters: webhookHeaderParameters,
    request: { body: { required: true, content: { 'application/json': { schema: refundWebhookSchema } } } },
    responses: ackResponses,
  });
}
