/** The forwarder: `payment-sandbox listen` and `forwardWebhooks`, and the listeners the dispatcher hands attempts to. */
export { createForwarderFeature, type ForwarderFeature } from './compose.js';
export {
  forwardWebhooks,
  ForwardWebhooksError,
  type ForwardedDelivery,
  type ForwardWebhooksOptions,
  type WebhookForwarder,
} from './forward-webhooks.js';
export { runListen, LISTEN_EXIT } from './listen-command.js';
