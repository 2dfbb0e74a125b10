/**
 * The webhooks feature: the control API of deliveries, the webhook key, the handlers and the
 * workbench. It builds the workbench (send any body signed, say why a signature check failed)
 * from the core and the transactions' outbox, and mounts its /_sandbox routes (`control.ts`).
 * This file is its public surface too.
 */
import type { CoreParts } from '../../core/core.js';
import type { Feature } from '../../core/http/route-context.js';
import { deliveryControlRoutes, webhookHandlerRoutes, webhookKeyControlRoutes, workbenchControlRoutes } from './control.js';
import { deliveryViews } from './delivery-views.js';
import { createSignatureExplainer, type SignatureExplainer } from './signature-explain.js';
import { createWebhookSender, type WebhookSendDeps, type WebhookSender } from './webhook-send.js';

export { deliveryListQuerySchema } from './control.js';
export { deliverySchema, explainRequestSchema, sendWebhookRequestSchema, webhookKeyFormsSchema } from './control.schemas.js';
export type { Delivery, DeliveryAttempt, DeliveryState, DeliverySummary, SignatureExplanation } from './control.schemas.js';
export { deliveryView } from './delivery-format.js';
export { deliveryViews } from './delivery-views.js';
export type { DeliveryViews } from './delivery-views.js';
export { EXPLAIN_CAUSES, type ExplainCause, type Explanation } from './signature-explain.js';
export { webhookKeyForms } from './webhook-key-forms.js';
export { type SendWebhookRequest } from './webhook-send.js';
export { runExplainSignature, runSendWebhook, WORKBENCH_EXIT } from './workbench-command.js';

export interface WebhooksFeature extends Feature {
  /** The webhook workbench: send any body signed (`sender`), say why a signature check failed (`explainer`). */
  workbench: { sender: WebhookSender; explainer: SignatureExplainer };
}

/** The workbench over the core and `outbox`, the transactions' outbox a sent body is queued in. */
export function createWebhooksFeature(core: CoreParts, outbox: Pick<WebhookSendDeps, 'queue' | 'webhookSubject'>): WebhooksFeature {
  const { options, queries, deliveries, signing, webhookPublicKeyPem } = core;
  const workbench = {
    sender: createWebhookSender({
      accounts: queries.accounts,
      defaultUrl: options.notificationUrl,
      targetRefused: (url) => core.webhookTargetRefused(url),
      queue: (fields, joinQueue) => outbox.queue(fields, joinQueue),
      webhookSubject: (id) => outbox.webhookSubject(id),
    }),
    explainer: createSignatureExplainer({ signing, publicKeyPem: webhookPublicKeyPem, deliveries }),
  };
  return {
    workbench,
    register(ctx) {
      const { queries, dispatcher } = ctx.core;
      const views = deliveryViews({ deliveries: queries.deliveries });
      ctx.control.route('/', webhookKeyControlRoutes());
      ctx.control.route('/', deliveryControlRoutes({ accounts: queries.accounts, deliveries: queries.deliveries, dispatcher, views }));
      ctx.control.route('/', workbenchControlRoutes({ ...workbench, views }));
      ctx.control.route('/', webhookHandlerRoutes());
    },
  };
}
