/**
 * `--latency`: artificial processing time, one middleware for every /v4 call whatever its
 * method (reads, creates, replays, cancel): no answer leaves before the configured time has
 * passed since the request came in. The wait is also kept as the `latency` variable, so an
 * idempotent create spends it while its key is claimed (a concurrent retry then sees
 * `concurrent_request`, as against a real, slow API) instead of waiting twice.
 */
import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from './env.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the `--latency` wait of `ms`, handles the request, and answers once the wait is over. */
export function artificialLatency({ ms }: { ms: number }): MiddlewareHandler<ApiEnv> {
  if (ms <= 0) return (_c, next) => next();
  return async (c, next) => {
    const elapsed = sleep(ms);
    c.set('latency', elapsed);
    await next();
    await elapsed;
  };
}
