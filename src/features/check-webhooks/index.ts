/**
 * The webhook checker: `checkWebhooks` and its report types for the programmatic API,
 * `runCheckWebhooks` for the `check-webhooks` subcommand, and the feature that mounts
 * `POST /_sandbox/check-webhooks` (`control.ts`). This file is its public surface too.
 */
import type { Feature } from '../../core/http/route-context.js';
import { webhookSigningOf } from '../../core/webhooks/signing.js';
import { checkWebhooks } from './battery.js';
import { checkWebhooksControlRoutes } from './control.js';

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
export type { WebhookCheckReportView } from './control.js';

/**
 * The control route over the core; `report` remembers the state URL a run was given, which the
 * go-live report reads after each acknowledged payment webhook to that URL.
 */
export function createCheckWebhooksFeature(report: { rememberStateUrl(webhookUrl: string, stateUrl: string): void }): Feature {
  return {
    register(ctx) {
      const { core } = ctx;
      const { options } = core;
      ctx.control.route(
        '/',
        checkWebhooksControlRoutes({
          webhookTargetRefused: (url) => core.webhookTargetRefused(url),
          // The battery signs as this sandbox's own deliveries do, and connects only where they may.
          checkWebhooks: (url, stateUrl, orders) => {
            if (stateUrl !== undefined) report.rememberStateUrl(url, stateUrl);
            return checkWebhooks(url, {
              signing: webhookSigningOf(options),
              timeZone: options.webhookTimezone,
              timeoutMs: options.deliveryTimeoutMs,
              guard: (address, port) => core.webhookConnectRefused(address, port),
              ...(stateUrl === undefined ? {} : { stateUrl }),
              ...(orders === undefined ? {} : { orders }),
            });
          },
        }),
      );
    },
  };
}
