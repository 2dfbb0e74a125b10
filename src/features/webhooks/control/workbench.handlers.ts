/** Handlers of the webhook workbench: they hand the request to the sender and the explainer. */
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { DeliveryViews } from '../delivery-views.js';
import type { SignatureExplainer } from '../signature-explain.js';
import type { WebhookSender } from '../webhook-send.js';
import type { ExplainRoute, SendRoute } from './workbench.routes.js';

/** What the workbench routes use. */
export interface WorkbenchControlDeps {
  sender: WebhookSender;
  explainer: SignatureExplainer;
  views: DeliveryViews;
}

export function workbenchHandlers(deps: WorkbenchControlDeps) {
  const send: ControlHandler<SendRoute> = (c) => {
    const { account_id, url, body } = c.req.valid('json');
    return c.json(deps.views.delivery(deps.sender.send({ accountId: account_id, url, body })), 201);
  };

  const explain: ControlHandler<ExplainRoute> = (c) => {
    const r = c.req.valid('json');
    const answer = deps.explainer.explain({
      body: r.body,
      bodyBase64: r.body_base64,
      signature: r.signature,
      deliveryId: r.delivery_id,
      publicKey: r.public_key,
    });
    return c.json(answer, 200);
  };

  return { send, explain };
}
