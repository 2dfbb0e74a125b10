/** Handler of `GET /_sandbox/events`: a `ready` event with the sandbox clock, then the feed. */
import type { Context } from 'hono';
import { isoTimestamp, type Clock } from '../../../core/clock/clock.js';
import type { SandboxEvents } from '../../../core/domain/events.js';
import type { AppEnv } from '../../../core/http/env.js';
import { FanOut, serveEventStream } from './events.stream.js';

/** What the change feed uses. */
export interface EventStreamDeps {
  clock: Pick<Clock, 'nowMs'>;
  events: Pick<SandboxEvents, 'subscribe'>;
}

export function eventHandlers({ clock, events }: EventStreamDeps) {
  const fanOut = new FanOut(events);
  return { stream: (c: Context<AppEnv>) => serveEventStream(c, fanOut, JSON.stringify({ now: isoTimestamp(clock.nowMs()) })) };
}
