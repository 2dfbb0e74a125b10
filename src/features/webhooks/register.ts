/** Mounts the webhooks' control routes: the signing key, the deliveries (and resend), the handlers. */
import type { RouteContext } from '../../core/http/route-context.js';
import { deliveryControlRoutes } from './control/deliveries.index.js';
import { webhookHandlerRoutes } from './control/webhook-handlers.index.js';
import { webhookKeyControlRoutes } from './control/webhook-key.index.js';
import { workbenchControlRoutes } from './control/workbench.index.js';
import { deliveryViews } from './delivery-views.js';
import type { SignatureExplainer } from './signature-explain.js';
import type { WebhookSender } from './webhook-send.js';

export function register(ctx: RouteContext, workbench: { sender: WebhookSender; explainer: SignatureExplainer }): void {
  const { queries, dispatcher } = ctx.core;
  const views = deliveryViews({ deliveries: queries.deliveries });
  ctx.control.route('/', webhookKeyControlRoutes());
  ctx.control.route('/', deliveryControlRoutes({ accounts: queries.accounts, deliveries: queries.deliveries, dispatcher, views }));
  ctx.control.route('/', workbenchControlRoutes({ ...workbench, views }));
  ctx.control.route('/', webhookHandlerRoutes());
}
