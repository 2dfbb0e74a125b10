/**
 * The control route of the payment-method catalogue, its definition and handler (sandbox
 * extension, for the panel, the README and CI): `GET /_sandbox/payment-methods` lists the
 * spec's groups with their channel codes, currencies, country, type and whether a payment
 * waits for the customer's step, as `payment-methods.ts` holds them. It needs no port.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { controlOperation } from '../../core/http/openapi/document.js';
import { PAYMENT_METHOD_TYPES } from './entities.js';
import { PAYMENT_METHOD_GROUPS } from './payment-methods.js';
import type { ControlHandler } from '../../core/http/control-route-parts.js';
import type { AppEnv } from '../../core/http/env.js';
import { createRouter } from '../../core/http/router.js';

const methodType = z.enum(PAYMENT_METHOD_TYPES);

export const paymentChannelSchema = z
  .object({
    code: z.string().openapi({ example: 'PROMPTPAY', description: 'The payment_channel_code of requests.' }),
    name: z.string().openapi({ example: 'PromptPay' }),
    type: methodType,
    currencies: z
      .union([z.array(z.string()), z.literal('any')])
      .openapi({ description: 'ISO 4217 codes the channel takes, or "any" (every accepted currency).' }),
    country: z.string().nullable().openapi({ example: 'TH', description: 'ISO 3166-1 alpha-2, null for global schemes.' }),
    processing_time: z.literal('Instant'),
    customer_step: z.boolean().openapi({
      description: 'Whether a direct-mode payment waits for the customer (QR, wallet, banking app). In checkout mode every payment does.',
    }),
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

export const list = createRoute({
  method: 'get',
  path: '/payment-methods',
  ...controlOperation,
  operationId: 'listPaymentMethods',
  summary: 'The payment-method catalogue: groups by kind and region, with channel codes, currencies and country',
  responses: { 200: { description: 'OK', content: { 'application/json': { schema: paymentMethodsResponseSchema } } } },
});

export type ListRoute = typeof list;

/** The catalogue as the control API answers it (plain JSON copies of the frozen data). */
export function paymentMethodsView(): z.infer<typeof paymentMethodsResponseSchema> {
  return paymentMethodsResponseSchema.parse({ groups: PAYMENT_METHOD_GROUPS });
}

const listHandler: ControlHandler<ListRoute> = (c) => c.json(paymentMethodsView(), 200);

export function paymentMethodControlRoutes(): OpenAPIHono<AppEnv> {
  return createRouter<AppEnv>().openapi(list, listHandler);
}
