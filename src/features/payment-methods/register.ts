/** Mounts the catalogue of payment methods (`GET /_sandbox/payment-methods`). */
import type { RouteContext } from '../../core/http/route-context.js';
import { paymentMethodControlRoutes } from './control/payment-methods.index.js';

export function register(ctx: RouteContext): void {
  ctx.control.route('/', paymentMethodControlRoutes());
}
