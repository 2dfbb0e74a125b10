/** Builds the forwarder: the listeners, handed to the core's dispatcher as its forwarding port. */
import { randomUUID } from 'node:crypto';
import type { CoreParts } from '../../core/core.js';
import type { RouteContext } from '../../core/http/route-context.js';
import { Listeners } from './listeners.js';
import { register } from './register.js';

export interface ForwarderFeature {
  /** The connected listeners (`payment-sandbox listen`). */
  readonly listeners: Listeners;
  register(ctx: RouteContext): void;
}

export function createForwarderFeature(core: CoreParts): ForwarderFeature {
  const listeners = new Listeners({ timeoutMs: core.options.deliveryTimeoutMs, newId: randomUUID });
  core.dispatcher.useForwarding(listeners);
  return { listeners, register: (ctx) => register(ctx, listeners) };
}
