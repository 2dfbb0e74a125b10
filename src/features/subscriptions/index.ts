/** The subscriptions feature: what other parts of the sandbox may use of it. */
export { addInterval } from './billing-schedule.js';
export { subscriptionControlRoutes } from './control/subscriptions.index.js';
export type { ControlSubscription } from './control/subscriptions.schemas.js';
export { subscriptionCalendar } from './subscription-calendar.js';
export { subscriptionView } from './subscription-format.js';
export { subscriptionsStore } from './subscriptions-store.js';
export { subscriptionRoutes } from './subscriptions.api.js';
export { subscriptionCreateDocument, subscriptionCreateSchema, subscriptionResponseSchema } from './subscriptions.schemas.js';
export { collectsMethodDuringTrial, createSubscriptionService, subscriptionActions } from './subscriptions.js';
export type { SubscriptionService } from './subscriptions.js';
