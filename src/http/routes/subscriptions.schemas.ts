/**
 * Where the subscription wire schemas used to live, kept as the one import path of the
 * schemas of the subscription resource (the formatter and the domain import from here); each
 * schema lives in its own file under `../wire/`.
 */
export { addressSchema, billingDetailsSchema, cartItemSchema } from '../wire/billing.js';
export { browserInfoSchema } from '../wire/browser-info.js';
export { customerSchema } from '../wire/customer.js';
export { metadataSchema } from '../wire/metadata.js';
export { paymentMethodRequestSchema, paymentMethodTypeSchema } from '../wire/payment-method.js';
export { planResponseSchema, planSchema } from '../wire/plan.js';
export {
  subscriptionCreateDocument,
  subscriptionCreateSchema,
  type SubscriptionCreate,
  type SubscriptionCreateInput,
  type SubscriptionCreateOptions,
} from '../wire/subscription-create.js';
export { paymentMethodResponseSchema, subscriptionResponseSchema, type Subscription } from '../wire/subscription-response.js';
