/** The hosted payment page: what other parts of the sandbox may use of it. */
export type { PaymentPageDeps } from './deps.js';
export { createPaymentPageFeature } from './register.js';
export { paymentPageRoutes } from './routes.js';
