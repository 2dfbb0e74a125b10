/**
 * The Node request and response under the app when @hono/node-server serves it: its bindings
 * (`c.env`) are `{ incoming, outgoing }`. In process (`app.request`) there are none.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** The request's Node bindings, or undefined when no Node server carries it. */
export function nodeBindings(c: Context): NodeBindings | undefined {
  const env: unknown = c.env;
  if (env === null || typeof env !== 'object' || !('incoming' in env) || !('outgoing' in env)) return undefined;
  const { incoming, outgoing } = env;
  if (incoming === null || typeof incoming !== 'object' || outgoing === null || typeof outgoing !== 'object' || !('setHeader' in outgoing))
    return undefined;
  return env as NodeBindings;
}

/**
 * The headers of a server-sent event stream (the change feed, a listener's attempts). Its
 * connection closes with the stream: once the stream ended (the sandbox stopped), a client
 * must not send its next request on that connection, which goes with the sandbox.
 */
export const EVENT_STREAM_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' } as const;
