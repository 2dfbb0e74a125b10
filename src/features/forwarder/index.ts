/**
 * The forwarder: `payment-sandbox listen` and `forwardWebhooks`. It builds the listeners from
 * the core and hands them to the core's dispatcher as its forwarding port, and mounts the
 * listener's /_sandbox routes (`control.ts`). This file is its public surface too.
 */
import { randomUUID } from 'node:crypto';
import type { CoreParts } from '../../core/core.js';
import type { Feature } from '../../core/http/route-context.js';
import { listenControlRoutes } from './control.js';
import { Listeners } from './listeners.js';

export {
  forwardWebhooks,
  ForwardWebhooksError,
  type ForwardedDelivery,
  type ForwardWebhooksOptions,
  type WebhookForwarder,
} from './forward-webhooks.js';
export { runListen, LISTEN_EXIT } from './listen-command.js';

export interface ForwarderFeature extends Feature {
  /** The connected listeners (`payment-sandbox listen`). */
  readonly listeners: Listeners;
}

export function createForwarderFeature(core: CoreParts): ForwarderFeature {
  const listeners = new Listeners({
    timeoutMs: core.options.deliveryTimeoutMs,
    newId: randomUUID,
    connected: (accountId) => core.dispatcher.carryWaiting(accountId),
  });
  core.dispatcher.useForwarding(listeners);
  return {
    listeners,
    register: (ctx) =>
      ctx.control.route(
        '/',
        listenControlRoutes({
          accounts: ctx.core.queries.accounts,
          listeners,
          timeoutMs: ctx.core.options.deliveryTimeoutMs,
          onStop: (end) => ctx.core.events.onEnd(end),
        }),
      ),
  };
}
