/**
 * Limits that keep one sandbox from growing without bound: at most
 * `--max-event-streams` open change-feed streams, and at most `--max-accounts` merchant
 * accounts. The body size and nesting limits are the body gate's (body.ts); the header
 * limit is the server's (server.ts); log retention is the store's.
 */
import type { MiddlewareHandler } from 'hono';
import { SandboxError } from '../domain/errors.js';
import type { AccountDirectory } from '../auth/account.js';
import type { AppEnv, BodyEnv } from './env.js';
import { nodeBindings } from './node-env.js';

/** Counts open event streams: a new one past `max` is a 429; a stream counts until it ends or its reader goes away. */
export function eventStreamCap(max: number): MiddlewareHandler<AppEnv> {
  let open = 0;
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    if (open >= max) {
      throw new SandboxError(
        429,
        'limit_reached',
        `At most ${max} event streams may be open at once (--max-event-streams); close a panel and retry`,
      );
    }
    open += 1;
    let counted = true;
    const done = (): void => {
      if (counted) open -= 1;
      counted = false;
    };
    try {
      await next();
    } catch (err) {
      done();
      throw err;
    }
    const outgoing = nodeBindings(c)?.outgoing;
    if (outgoing?.headersSent) {
      // The stream was written straight to the Node response (event-stream.ts): open until it closes.
      if (outgoing.closed) done();
      else outgoing.once('close', done);
      return;
    }
    const body = c.res.body;
    if (!body || c.res.status !== 200) return done();
    const reader = body.getReader();
    const counting = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            done();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (err) {
          done();
          controller.error(err);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    c.res = new Response(counting, { status: c.res.status, headers: c.res.headers });
  };
}

/** What `accountLimit` needs: the limit (`--max-accounts`) and the count of the accounts. */
export interface AccountLimitDeps {
  max: number;
  accounts: Pick<AccountDirectory, 'count'>;
}

/** Refuses a new account (409 `limit_reached`) once `max` exist, counting the ones being created. */
export function accountLimit({ max, accounts }: AccountLimitDeps): MiddlewareHandler<BodyEnv> {
  let creating = 0;
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const existing = accounts.count();
    if (existing + creating >= max) {
      throw new SandboxError(409, 'limit_reached', `This sandbox holds at most ${max} merchant accounts (--max-accounts)`);
    }
    creating += 1;
    try {
      await next();
    } finally {
      creating -= 1;
    }
  };
}
