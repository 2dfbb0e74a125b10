/**
 * The payment-methods feature: the catalogue of channels, cards, QR payloads (EMVCo) and the
 * customer's step. It mounts `GET /_sandbox/payment-methods` (`control.ts`); this file is its
 * public surface too.
 */
import type { RouteContext } from '../../core/http/route-context.js';
import { paymentMethodControlRoutes } from './control.js';

export {
  DEFAULT_TEST_CARD,
  cardBrand,
  cardLast4,
  defaultTestCardExpiry,
  isCardExpired,
  isValidExpiry,
  luhnValid,
  securityCodeLength,
} from './card.js';
export { awaitsCustomer, failedByExpiredLink, hasPaymentUrl, linkExpiredWhilePending } from './customer-step.js';
export { qrPayloadFor } from './emvco/payment-payload.js';
export {
  CHECKOUT_CARD_DATA_RULE,
  DIRECT_PAYMENT_METHOD_RULE,
  channelRule,
  channelTypeRule,
  checkoutCardDataRule,
  directPaymentMethodRule,
  paymentMethodRequestSchema,
  paymentMethodTypeSchema,
  securityCodeRule,
} from './payment-method-schema.js';
export { groupOf, paymentChannel, paymentLinkExpiresAt } from './payment-methods.js';
export type { PaymentChannel } from './payment-methods.js';

/** Mounts the catalogue (it needs no service). */
export function register(ctx: RouteContext): void {
  ctx.control.route('/', paymentMethodControlRoutes());
}
export { PAYMENT_METHOD_TYPES } from './entities.js';
export type { PaymentMethodType, StoredPaymentMethod } from './entities.js';
