/**
 * The webhook checker's public surface: `checkWebhooks` and its report types for the
 * programmatic API, `runCheckWebhooks` for the `check-webhooks` subcommand.
 */
export { DEFAULT_CHECK_TIMEOUT_MS, MAX_ORDERS, ORDERS_USED, WEBHOOK_CHECK_IDS, checkWebhooks, problemWithOrders } from './battery.js';
export type {
  CheckWebhooksOptions,
  WebhookCheckId,
  WebhookCheckOutcome,
  WebhookCheckReport,
  WebhookCheckResult,
  WebhookExchange,
} from './battery.js';
export { CHECK_EXIT, formatReport, runCheckWebhooks } from './command.js';
