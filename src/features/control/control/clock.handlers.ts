/** Handlers of the sandbox clock. The advance itself is the application's (`ClockControl`). */
import { addInterval } from '../../subscriptions/index.js';
import { isoTimestamp, type Clock } from '../../../core/clock/clock.js';
import { badRequest } from '../../../core/domain/errors.js';
import { AdvanceTooLongError, MAX_ADVANCE_STEPS } from '../../../core/clock/timed-work.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { AdvanceRoute, GetRoute } from './clock.routes.js';

/** Moves the sandbox clock forward, running all that falls due; how many steps ran. */
export interface ClockControl {
  advanceClock(seconds: number, options?: { waitForWebhooks?: boolean }): Promise<number>;
}

/** What the clock routes use. */
export interface ClockControlDeps {
  clock: Pick<Clock, 'nowMs' | 'offsetMs'>;
  control: ClockControl;
}

export function clockHandlers({ clock, control }: ClockControlDeps) {
  const get: ControlHandler<GetRoute> = (c) => c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000 }, 200);

  const advance: ControlHandler<AdvanceRoute> = async (c) => {
    const { seconds, months, wait_for_webhooks: waitForWebhooks } = c.req.valid('json');
    const nowMs = clock.nowMs();
    let steps: number;
    try {
      steps = await control.advanceClock(
        months === undefined ? seconds! : (addInterval(new Date(nowMs), 'month', months).getTime() - nowMs) / 1000,
        { waitForWebhooks },
      );
    } catch (err) {
      // Refused before anything moved: name the field that asked for too much.
      if (!(err instanceof AdvanceTooLongError)) throw err;
      const pointer = months === undefined ? '/seconds' : '/months';
      throw badRequest(err.message, [
        {
          type: 'value_error',
          pointer,
          location: 'body',
          message: `would run about ${err.estimatedSteps} steps; at most ${MAX_ADVANCE_STEPS} per advance`,
        },
      ]);
    }
    return c.json({ now: isoTimestamp(clock.nowMs()), offset_seconds: clock.offsetMs() / 1000, steps }, 200);
  };

  return { get, advance };
}
