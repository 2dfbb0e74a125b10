/**
 * payment_method of a request (spec: Sub-objects): its kinds, the card fields direct mode
 * sends, and the direct-mode rule (a card needs number, expiration_date and security_code;
 * any other kind needs its payment_channel_code). Shared by transactions and subscriptions.
 */
import { z } from '@hono/zod-openapi';
import { isValidExpiry, luhnValid } from '../../domain/card.js';
import { httpUrlSchema, text } from '../schemas.js';
import { isRecord, missing, type IssueSink } from './issues.js';

const CARD_NUMBER_FORMAT = /^\d{12,19}$/;

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
 * payment_method of the request, with the card fields of direct mode. Card fields are
 * optional here; `directPaymentMethodRule` requires them for `type: card` in direct mode.
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

/** What direct mode requires of a payment method (in the words of the request). */
export const DIRECT_PAYMENT_METHOD_RULE =
  'Direct mode: type card needs number, expiration_date and security_code; any other type needs payment_channel_code.';

/**
 * The direct-mode rule on the body's `payment_method` (read defensively): a card needs its
 * number, expiration_date and security_code; any other kind its payment_channel_code.
 */
export function directPaymentMethodRule(body: Record<string, unknown>, ctx: IssueSink): void {
  const method = body.payment_method;
  if (!isRecord(method) || !paymentMethodTypeSchema.safeParse(method.type).success) return;
  if (method.type === 'card') {
    for (const field of ['number', 'expiration_date', 'security_code'] as const) {
      if (method[field] === undefined) {
        missing(ctx, ['payment_method', field], 'string', `payment_method.${field} is required for card payments in direct mode`);
      }
    }
  } else if (method.payment_channel_code === undefined) {
    missing(ctx, ['payment_method', 'payment_channel_code'], 'string', `payment_method.payment_channel_code is required for payment method type ${method.type}`);
  }
}
