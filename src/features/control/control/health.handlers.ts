/** Handler of `GET /_sandbox/health`: ok, the sandbox clock and the key pool's level. */
import { isoTimestamp, type Clock } from '../../../core/clock/clock.js';
import type { MerchantAccounts } from '../../accounts/index.js';
import type { ControlHandler } from '../../../core/http/control-route-parts.js';
import type { GetRoute } from './health.routes.js';

/** What the health route uses. */
export interface HealthDeps {
  clock: Pick<Clock, 'nowMs'>;
  accounts: Pick<MerchantAccounts, 'keyPoolLevel'>;
}

export function healthHandlers({ clock, accounts }: HealthDeps) {
  const get: ControlHandler<GetRoute> = (c) =>
    c.json({ status: 'ok' as const, now: isoTimestamp(clock.nowMs()), key_pool: accounts.keyPoolLevel() }, 200);
  return { get };
}
