/** Handlers of the sandbox clock and of each account's own clock. The advances themselves are the application's (`ClockControl`). */
import { addInterval } from '../../subscriptions/index.js';
import { isoTimestamp, type Clock } from '../../../core/clock/clock.js';
import { SandboxError, notFound } from '../../../core/domain/errors.js';
import { AdvanceRefusal } from '../../../core/clock/timed-work.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { AdvanceAccountRoute, AdvanceRoute, GetAccountRoute, GetRoute } from './clock.routes.js';
import type { clockAdvanceSchema } from './clock.routes.js';
import type { z } from '@hono/zod-openapi';

/** Moves the sandbox clock forward, running all that falls due; how many steps ran. */
export interface ClockControl {
  advanceClock(seconds: number, options?: { waitForWebhooks?: boolean }): Promise<number>;
}

/** What the clock routes use. */
export interface ClockControlDeps {
  clock: Pick<Clock, 'nowMs' | 'offsetMs'>;
  control: ClockControl;
}

/** Moves one account's clock forward, and reads it. */
export interface AccountClockControl {
  advanceAccountClock(accountId: string, seconds: number, options?: { waitForWebhooks?: boolean }): Promise<number>;
  accountClock(accountId: string): { nowMs: number; offsetMs: number };
}

/** What the account clock routes use: the accounts (404 for an unknown one) and the control. */
export interface AccountClockControlDeps {
  accounts: { byId(id: string): unknown };
  control: AccountClockControl;
}

type AdvanceBody = z.output<typeof clockAdvanceSchema>;

/**
 * Runs one advance of `body` from `nowMs` (seconds, or calendar months on that clock); a
 * refusal (too long, past the latest time a clock may show) or a stop at the step limit names
 * the field, and keeps how far the clock moved in its envelope.
 */
async function advanceBy(
  body: AdvanceBody,
  nowMs: number,
  run: (seconds: number, options: { waitForWebhooks: boolean }) => Promise<number>,
): Promise<number> {
  const { seconds, months, wait_for_webhooks: waitForWebhooks } = body;
  try {
    return await run(months === undefined ? seconds! : (addInterval(new Date(nowMs), 'month', months).getTime() - nowMs) / 1000, {
      waitForWebhooks,
    });
  } catch (err) {
    if (!(err instanceof AdvanceRefusal)) throw err;
    const pointer = months === undefined ? '/seconds' : '/months';
    throw new SandboxError(
      err.status,
      err.code,
      err.message,
      [{ type: 'value_error', pointer, location: 'body', message: err.detail }],
      err.extra,
    );
  }
}

export function clockHandlers({ clock, control }: ClockControlDeps) {
  const get: ControlHandler<GetRoute> = (c) => c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000 }, 200);

  const advance: ControlHandler<AdvanceRoute> = async (c) => {
    const steps = await advanceBy(c.req.valid('json'), clock.nowMs(), (seconds, options) => control.advanceClock(seconds, options));
    return c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000, steps }, 200);
  };

  return { get, advance };
}

export function accountClockHandlers({ accounts, control }: AccountClockControlDeps) {
  const accountOf = (accountId: string): string => {
    if (!accounts.byId(accountId)) throw notFound(`Merchant account ${accountId} not found`);
    return accountId;
  };
  const view = (accountId: string): { now: string; offset_seconds: number } => {
    const { nowMs, offsetMs } = control.accountClock(accountId);
    return { now: isoTimestamp(nowMs), offset_seconds: offsetMs / 1000 };
  };

  const get: ControlHandler<GetAccountRoute> = (c) => c.json(view(accountOf(c.req.valid('param').account_id)), 200);

  const advance: ControlHandler<AdvanceAccountRoute> = async (c) => {
    const accountId = accountOf(c.req.valid('param').account_id);
    const steps = await advanceBy(c.req.valid('json'), control.accountClock(accountId).nowMs, (seconds, options) =>
      control.advanceAccountClock(accountId, seconds, options),
    );
    return c.json({ ...view(accountId), steps }, 200);
  };

  return { get, advance };
}
