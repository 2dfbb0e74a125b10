/**
 * Control API of the payment-method catalogue (sandbox extension, for the panel, the README
 * and CI): `GET /_sandbox/payment-methods` lists the spec's groups with their channel codes,
 * currencies, country, type and whether a payment waits for the customer's step, as
 * `domain/payment-methods.ts` holds them. Mounted by the app under /_sandbox.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { PAYMENT_METHOD_GROUPS } from '../../domain/payment-methods.js';
import type { AppEnv } from '../env.js';
import { controlOperation } from '../openapi/document.js';
import { createRouter } from '../router.js';

const methodType = z.enum(['card', 'qr', 'wallet', 'banking_app']);

export const paymentChannelSchema = z
  .object({
    code: z.string().openapi({ example: 'PROMPTPAY', description: 'The payment_channel_code of requests.' }),
    name: z.string().openapi({ example: 'PromptPay' }),
    type: methodType,
    currencies: z.union([z.array(z.string()), z.literal('any')]).openapi({ description: 'ISO 4217 codes the channel takes, or "any" (every accepted currency).' }),
    country: z.string().nullable().openapi({ example: 'TH', description: 'ISO 3166-1 alpha-2, null for global schemes.' }),
    processing_time: z.literal('Instant'),
    customer_step: z.boolean().openapi({ description: 'Whether a direct-mode payment waits for the customer (QR, wallet, banking app). In checkout mode every payment does.' }),
    schemes: z.array(z.string()).openapi({ description: 'Card schemes of a card channel.' }),
  })
  .openapi('PaymentChannel');

export const paymentMethodGroupSchema = z
  .object({
    id: z.string().openapi({ example: 'thai_qr' }),
    name: z.string().openapi({ example: 'Thai instant bank-transfer QR' }),
    region: z.string().openapi({ example: 'Thailand' }),
    country: z.string().nullable(),
    type: methodType,
    channels: z.array(paymentChannelSchema),
  })
  .openapi('PaymentMethodGroup');

export const paymentMethodsResponseSchema = z.object({ groups: z.array(paymentMethodGroupSchema) }).openapi('PaymentMethods');

/** The catalogue as the control API answers it (plain JSON copies of the frozen data). */
export function paymentMethodsView(): z.infer<typeof paymentMethodsResponseSchema> {
  return paymentMethodsResponseSchema.parse({ groups: PAYMENT_METHOD_GROUPS });
}

/** The /_sandbox route of the payment-method catalogue. */
export function paymentMethodControlRoutes(): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/payment-methods',
      ...controlOperation,
      operationId: 'listPaymentMethods',
      summary: 'The payment-method catalogue: groups by kind and region, with channel codes, currencies and country',
      responses: { 200: { description: 'OK', content: { 'application/json': { schema: paymentMethodsResponseSchema } } } },
    }),
    (c) => c.json(paymentMethodsView(), 200),
  );
  return app;
}
