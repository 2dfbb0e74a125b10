/**
 * The sandbox feature: the sandbox's own state and time, not a product resource. It builds
 * the reset and the clock advances (`sandbox-control.ts`) from the core, the accounts (buyers
 * seeded again after a reset, the key pool's level) and the go-live report (emptied by a
 * reset), and mounts its control routes (`control.ts`): health, currencies, the clock and each
 * account's, the request log, reset and the change feed. This file is its public surface too.
 */
import type { CoreParts } from '../../core/core.js';
import type { Feature } from '../../core/http/route-context.js';
import type { MerchantAccounts } from '../accounts/index.js';
import { sandboxControlRoutes } from './control.js';
import { createSandboxControl, type SandboxControl } from './sandbox-control.js';

export { MAX_ADVANCE_SECONDS, accountClockParam, clockAdvanceSchema } from './control.schemas.js';
export type { Clock, ClockAdvanced, RequestLogEntry } from './control.schemas.js';
export type { SandboxControl } from './sandbox-control.js';

export interface SandboxFeature extends Feature {
  /** Reset and the sandbox clock: `reset`, `advanceClock` (running all that falls due, then waiting for the webhooks it queued unless told not to; the fixtures' advances too). */
  service: SandboxControl;
}

export function createSandboxFeature(
  core: CoreParts,
  deps: {
    /** Buyers seeded again after a reset; the key pool's level for the health check. */
    accounts: Pick<MerchantAccounts, 'reseedBuyers' | 'keyPoolLevel'>;
    /** The go-live report's aggregates, emptied by a reset. */
    report: { clear(): void };
  },
): SandboxFeature {
  const { scheduler, clock, uow, state, dispatcher, feed, queries, events } = core;
  const service = createSandboxControl({
    scheduler,
    clock,
    uow,
    state,
    buyers: deps.accounts,
    report: deps.report,
    webhooks: dispatcher,
    feed,
  });
  return {
    service,
    register: (ctx) =>
      ctx.control.route(
        '/',
        sandboxControlRoutes({
          clock,
          events,
          accounts: queries.accounts,
          keyPool: deps.accounts,
          requestLog: ctx.httpRecords.requestLog,
          control: service,
        }),
      ),
  };
}
