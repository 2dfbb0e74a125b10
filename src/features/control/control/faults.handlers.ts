/** Handlers of webhook faults and the check-webhooks battery (which the app hands in: it lives in src/check-webhooks/). */
import type { Delivery, DeliveryFault } from '../../../core/domain/entities.js';
import { badRequest } from '../../../core/domain/errors.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { DeliveryViews } from '../../webhooks/index.js';
import type { CheckWebhooksRoute, InjectFaultRoute, WebhookCheckReportLike } from './faults.routes.js';

/** Scripted webhook faults on a transaction (404 unknown transaction; 409 no webhook or refund yet). */
export interface WebhookFaults {
  inject(transactionId: string, request: { kind: DeliveryFault; seconds?: number }): Delivery[];
}

/** What the fault routes use. */
export interface FaultControlDeps {
  webhookFaults: WebhookFaults;
  views: DeliveryViews;
  /** Why `url` may not receive webhooks, or null (the guard of a notification_url). */
  webhookTargetRefused(url: string): string | null;
  /** Runs the check-webhooks battery against `url`, signing as this sandbox does. */
  checkWebhooks(url: string, stateUrl?: string, orders?: string[]): Promise<WebhookCheckReportLike>;
}

export function faultHandlers(deps: FaultControlDeps) {
  const injectFault: ControlHandler<InjectFaultRoute> = (c) => {
    const { fault, seconds } = c.req.valid('json');
    const queued = deps.webhookFaults.inject(c.req.valid('param').id, { kind: fault, ...(seconds !== undefined ? { seconds } : {}) });
    return c.json({ deliveries: queued.map(deps.views.delivery) }, 201);
  };

  const checkWebhooks: ControlHandler<CheckWebhooksRoute> = async (c) => {
    const { url, state_url: stateUrl, orders } = c.req.valid('json');
    // The webhook target guard, as for a notification_url; checked again at connect time.
    for (const [pointer, target] of [['/url', url] as const, ['/state_url', stateUrl] as const]) {
      const refused = target === undefined ? null : deps.webhookTargetRefused(target);
      if (refused !== null)
        throw badRequest('Request failed validation', [
          { type: 'value_error', pointer, message: `Webhook target refused: ${refused}`, location: 'body' },
        ]);
    }
    return c.json(await deps.checkWebhooks(url, stateUrl, orders), 200);
  };

  return { injectFault, checkWebhooks };
}
