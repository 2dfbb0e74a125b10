/**
 * Where the subscription wire schemas used to live, kept as the one import path of the
 * schemas of the subscription resource (the formatter and the domain import from here); each
 * schema lives in its own file under `../wire/`.
 */
export { addressSchema, billingDetailsSchema, cartItemSchema } from './billing-schema.js';
export { browserInfoSchema } from '../../core/http/wire/browser-info.js';
export { customerSchema } from '../../core/http/wire/customer.js';
export { metadataSchema } from '../../core/http/wire/metadata.js';
export { paymentMethodRequestSchema, paymentMethodTypeSchema } from '../payment-methods/index.js';
export { planResponseSchema, planSchema } from './plan-schema.js';
export {
  subscriptionCreateDocument,
  subscriptionCreateSchema,
  type SubscriptionCreate,
  type SubscriptionCreateInput,
  type SubscriptionCreateOptions,
} from './subscription-create-schema.js';
export { paymentMethodResponseSchema, subscriptionResponseSchema, type Subscription } from './subscription-response-schema.js';
