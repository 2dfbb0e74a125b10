/** Handler of the payment-method catalogue: the domain's frozen data as plain JSON. */
import type { z } from '@hono/zod-openapi';
import { PAYMENT_METHOD_GROUPS } from '../payment-methods.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import { paymentMethodsResponseSchema, type ListRoute } from './payment-methods.routes.js';

/** The catalogue as the control API answers it (plain JSON copies of the frozen data). */
export function paymentMethodsView(): z.infer<typeof paymentMethodsResponseSchema> {
  return paymentMethodsResponseSchema.parse({ groups: PAYMENT_METHOD_GROUPS });
}

export const list: ControlHandler<ListRoute> = (c) => c.json(paymentMethodsView(), 200);
