/**
 * Runs each /v4 request on its account's own clock (`X-MERCHANT-ACCOUNT-ID`): what it stores is
 * stamped, its idempotency key expires, and the webhooks it queues are timed on that clock.
 * Authentication later refuses a header the token does not belong to.
 */
import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../clock/clock.js';

export function onAccountClock(clock: Pick<Clock, 'inAccount'>): MiddlewareHandler {
  return (c, next) => {
    const accountId = c.req.header('x-merchant-account-id');
    return accountId ? clock.inAccount(accountId, () => next()) : next();
  };
}
