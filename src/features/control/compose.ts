/**
 * The control feature built from the core and the features a reset and an advance reach: the
 * sandbox's controls (reset, the clock and each account's) and its control routes.
 */
import type { CoreParts } from '../../core/core.js';
import type { Feature } from '../../core/http/route-context.js';
import type { MerchantAccounts } from '../accounts/index.js';
import type { WebhookFaults } from './control/faults.handlers.js';
import { register } from './register.js';
import { createSandboxControl, type SandboxControl } from './sandbox-control.js';

/** What the controls use of other features. */
export interface ControlFeatureDeps {
  /** Buyers seeded again after a reset; the key pool's level for the health check. */
  accounts: Pick<MerchantAccounts, 'reseedBuyers' | 'keyPoolLevel'>;
  /** The go-live report: emptied by a reset; remembers the state URL a check-webhooks run was given. */
  report: { clear(): void; rememberStateUrl(webhookUrl: string, stateUrl: string): void };
  /** Scripted webhook faults on a transaction. */
  webhookFaults: WebhookFaults;
}

export interface ControlFeature extends Feature {
  /** Reset and the sandbox clock: `reset`, `advanceClock` (running all that falls due, then waiting for the webhooks it queued unless told not to; the fixtures' advances too). */
  service: SandboxControl;
}

export function createControlFeature(core: CoreParts, { accounts, report, webhookFaults }: ControlFeatureDeps): ControlFeature {
  const { scheduler, clock, uow, state, dispatcher, feed } = core;
  const service = createSandboxControl({
    scheduler,
    clock,
    uow,
    state,
    buyers: accounts,
    report,
    webhooks: dispatcher,
    feed,
  });
  return {
    service,
    register: (ctx) =>
      register(ctx, {
        control: service,
        accounts,
        webhookFaults,
        rememberStateUrl: (url, stateUrl) => report.rememberStateUrl(url, stateUrl),
      }),
  };
}
