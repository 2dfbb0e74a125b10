/** Handler of `POST /_sandbox/reset`. The reset itself is the application's (`ResetControl`). */
import { isoTimestamp, type Clock } from '../../../core/clock/clock.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { ResetRoute } from './reset.routes.js';

/** Empties all data but the accounts and scenarios; with `rewindClock`, the clock goes back to real time. */
export interface ResetControl {
  reset(options?: { rewindClock?: boolean }): void;
}

/** What the reset route uses. */
export interface ResetControlDeps {
  clock: Pick<Clock, 'nowMs' | 'offsetMs'>;
  control: ResetControl;
}

export function resetHandlers({ clock, control }: ResetControlDeps) {
  const reset: ControlHandler<ResetRoute> = (c) => {
    control.reset({ rewindClock: c.req.valid('json')?.rewind_clock ?? false });
    return c.json({ status: 'reset' as const, now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000 }, 200);
  };
  return { reset };
}
