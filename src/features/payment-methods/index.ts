/** The payment-methods feature: what other parts of the sandbox may use of it. */
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
export { paymentMethodControlRoutes } from './control/payment-methods.index.js';
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
export { register } from './register.js';
export { PAYMENT_METHOD_TYPES } from './entities.js';
export type { PaymentMethodType, StoredPaymentMethod } from './entities.js';
