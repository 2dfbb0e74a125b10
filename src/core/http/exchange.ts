/**
 * What one /v4 request's steps note as it goes, in one object the pipeline makes when the
 * request arrives (`pipeline.ts`): the request log's annotations (warnings, the key as logged,
 * a replay), the `--latency` wait the create's claim spends, what the operation answered, a
 * scenario rule's fault to play once it ran, and the hook that writes the entry inside a
 * create's unit of work. The request log turns it into the entry and the event its
 * subscribers hear (`request-log.ts` `LoggedRequest`); no feature reads it.
 */
import type { Context } from 'hono';
import type { ApiEnv, Exchange } from './env.js';

export type { Exchange };

/** A fresh exchange: nothing noted yet. */
export function newExchange(): Exchange {
  return {
    warnings: [],
    idempotencyKey: undefined,
    replayed: false,
    latency: undefined,
    answered: undefined,
    faultAfter: undefined,
    logInUnit: undefined,
    prepareLog: undefined,
  };
}

/** The exchange of request `c` (made on first use where no pipeline front made it, as in a router's unit test). */
export function exchangeOf(c: Context<ApiEnv>): Exchange {
  let exchange = c.get('exchange') as Exchange | undefined;
  if (exchange === undefined) {
    exchange = newExchange();
    c.set('exchange', exchange);
  }
  return exchange;
}
