/** The webhooks feature: what other parts of the sandbox may use of it. */
export { deliveryControlRoutes } from './control/deliveries.index.js';
export { deliveryListQuerySchema } from './control/deliveries.routes.js';
export { deliverySchema } from './control/deliveries.schemas.js';
export type { Delivery, DeliveryAttempt, DeliveryState, DeliverySummary } from './control/deliveries.schemas.js';
export { webhookHandlerRoutes } from './control/webhook-handlers.index.js';
export { webhookKeyForms } from './control/webhook-key.forms.js';
export { webhookKeyControlRoutes } from './control/webhook-key.index.js';
export { webhookKeyFormsSchema } from './control/webhook-key.schemas.js';
export { deliveryView } from './delivery-format.js';
export { createWebhooksFeature } from './compose.js';
export type { WebhooksFeature } from './compose.js';
export { workbenchControlRoutes } from './control/workbench.index.js';
export { type SendWebhookRequest } from './webhook-send.js';
export { EXPLAIN_CAUSES, type ExplainCause, type Explanation } from './signature-explain.js';
export { explainRequestSchema, sendWebhookRequestSchema } from './control/workbench.schemas.js';
export type { SignatureExplanation } from './control/workbench.schemas.js';
export { runExplainSignature, runSendWebhook, WORKBENCH_EXIT } from './workbench-command.js';
