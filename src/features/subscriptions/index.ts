/** The subscriptions feature: what other parts of the sandbox may use of it. */
export { addInterval } from './billing-schedule.js';
export { subscriptionControlRoutes } from './control/subscriptions.index.js';
export type { ControlSubscription } from './control/subscriptions.schemas.js';
export { subscriptionCalendar } from './subscription-calendar.js';
export { subscriptionView } from './subscription-format.js';
export { subscriptionsStore } from './subscriptions-store.js';
export { subscriptionRoutes } from './subscriptions.api.js';
export { subscriptionCreateDocument, subscriptionCreateSchema } from './subscription-create-schema.js';
export { subscriptionResponseSchema } from './subscription-response-schema.js';
export { collectsMethodDuringTrial, subscriptionActions } from './subscription-terms.js';
export type { SubscriptionService } from './subscriptions.js';
export { createSubscriptionsFeature } from './compose.js';
export type { SubscriptionsFeature } from './compose.js';
export type { Subscription } from './entities.js';
export type { SubscriptionQueries, SubscriptionsRepo } from './ports.js';
export { subscriptionsMigrations } from './migrations.js';
