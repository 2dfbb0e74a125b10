/**
 * Mounts the sandbox's own control routes: health, currencies, the clock and each account's, the request log,
 * reset, the event stream, and the scripted webhook faults with the handler check.
 */
import type { RouteContext } from '../../core/http/route-context.js';
import { webhookSigningOf } from '../../core/webhooks/signing.js';
import type { MerchantAccounts } from '../accounts/index.js';
import { checkWebhooks } from '../check-webhooks/index.js';
import { deliveryViews } from '../webhooks/index.js';
import { accountClockControlRoutes, clockControlRoutes } from './control/clock.index.js';
import { currencyControlRoutes } from './control/currencies.index.js';
import { eventControlRoutes } from './control/events.index.js';
import type { WebhookFaults } from './control/faults.handlers.js';
import { faultControlRoutes } from './control/faults.index.js';
import { healthControlRoutes } from './control/health.index.js';
import { requestLogControlRoutes } from './control/requests.index.js';
import { resetControlRoutes } from './control/reset.index.js';
import type { SandboxControl } from './sandbox-control.js';

/** The services the control routes use. */
export interface ControlFeatureServices {
  accounts: Pick<MerchantAccounts, 'keyPoolLevel'>;
  control: SandboxControl;
  webhookFaults: WebhookFaults;
  /** The state URL a merchant gave for its handler at `webhookUrl`, which the go-live report reads later. */
  rememberStateUrl(webhookUrl: string, stateUrl: string): void;
}

export function register(ctx: RouteContext, services: ControlFeatureServices): void {
  const { options, clock, queries, events } = ctx.core;
  const { control } = services;
  const core = ctx.core;
  ctx.control.route('/', healthControlRoutes({ clock, accounts: services.accounts }));
  ctx.control.route('/', currencyControlRoutes());
  ctx.control.route('/', clockControlRoutes({ clock, control }));
  ctx.control.route('/', accountClockControlRoutes({ accounts: queries.accounts, control }));
  ctx.control.route('/', requestLogControlRoutes({ accounts: queries.accounts, requestLog: ctx.httpRecords.requestLog }));
  ctx.control.route('/', resetControlRoutes({ clock, control }));
  ctx.control.route('/', eventControlRoutes({ clock, events }));
  ctx.control.route(
    '/',
    faultControlRoutes({
      webhookFaults: services.webhookFaults,
      views: deliveryViews({ deliveries: queries.deliveries }),
      webhookTargetRefused: (url) => core.webhookTargetRefused(url),
      // The battery signs as this sandbox's own deliveries do, and connects only where they may.
      checkWebhooks: (url, stateUrl, orders) => {
        if (stateUrl !== undefined) services.rememberStateUrl(url, stateUrl);
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
}
