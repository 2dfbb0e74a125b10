/**
 * `GET /_sandbox/events`: the change feed as server-sent events, fanned out to every open
 * stream with bounded memory. Each event is serialized once, whatever the number
 * of streams; each stream may fall at most `MAX_BUFFERED_BYTES` behind (bytes written but not
 * yet taken by the client's socket: the Node response's `writableLength`, or the queue of the
 * in-process body). A stream that falls further behind is sent one final `dropped` event and
 * closed, as SSE servers do with slow consumers; a client that never reads is cut off
 * `DROP_GRACE_MS` later. So memory stays flat whatever clients do (do not read, read slowly,
 * open the most streams allowed).
 */
import type { Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { SandboxEvent, SandboxEvents } from '../../core/domain/events.js';
import type { AppEnv } from '../../core/http/env.js';
import { EVENT_STREAM_HEADERS, nodeBindings } from '../../core/http/node-env.js';

/** How far (bytes) one stream may fall behind before it is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** How long a dropped stream's final event may wait for a client that does not read, before its connection is cut. */
const DROP_GRACE_MS = 5_000;
/** A `: keep-alive` comment after this long without events. */
const KEEP_ALIVE_MS = 15_000;

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');
/** The last event of a stream that fell too far behind. */
const DROPPED = encoder.encode(
  `event: dropped\ndata: ${JSON.stringify({
    reason: 'slow_client',
    message: `This event stream fell more than ${MAX_BUFFERED_BYTES} bytes behind and was closed; reconnect and read the current state again`,
  })}\n\n`,
);

/** Where one stream's bytes go: the Node response, or the body of an in-process response. */
interface Sink {
  write(chunk: Uint8Array): void;
  /** Bytes written and not yet taken by the client. */
  buffered(): number;
  /** Ends the stream (what is buffered is still sent); `cut` afterwards drops the connection. */
  end(): void;
  cut(): void;
}

interface Client {
  sink: Sink;
  lastWrite: number;
}

/** The streams of one sandbox's feed (one per router: `control.ts` makes it). */
export class FanOut {
  private readonly clients = new Set<Client>();
  private unsubscribe: (() => void) | undefined;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(private readonly events: Pick<SandboxEvents, 'subscribe'>) {}

  add(sink: Sink, ready: string): () => void {
    const client: Client = { sink, lastWrite: Date.now() };
    this.clients.add(client);
    sink.write(encoder.encode(`event: ready\ndata: ${ready}\n\n`));
    if (!this.unsubscribe) {
      this.unsubscribe = this.events.subscribe(
        (event) => this.broadcast(event),
        () => this.endAll(),
      );
      this.keepAlive = setInterval(() => this.ping(), KEEP_ALIVE_MS);
      this.keepAlive.unref();
    }
    return () => this.remove(client);
  }

  private remove(client: Client): void {
    if (!this.clients.delete(client) || this.clients.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.keepAlive);
  }

  /** Writes `chunk` to `client`, or drops the client when that would put it too far behind. */
  private send(client: Client, chunk: Uint8Array, now: number): void {
    if (client.sink.buffered() + chunk.byteLength > MAX_BUFFERED_BYTES) {
      this.remove(client);
      client.sink.write(DROPPED);
      client.sink.end();
      setTimeout(() => client.sink.cut(), DROP_GRACE_MS).unref();
      return;
    }
    client.sink.write(chunk);
    client.lastWrite = now;
  }

  private broadcast(event: SandboxEvent & { id: number }): void {
    const chunk = encoder.encode(`event: change\ndata: ${JSON.stringify(event)}\n\n`); // once, for every stream
    const now = Date.now();
    for (const client of [...this.clients]) this.send(client, chunk, now);
  }

  private ping(): void {
    const now = Date.now();
    for (const client of [...this.clients]) if (now - client.lastWrite >= KEEP_ALIVE_MS) this.send(client, KEEP_ALIVE, now);
  }

  /** The sandbox is stopping: every stream ends. */
  private endAll(): void {
    for (const client of [...this.clients]) {
      this.remove(client);
      client.sink.end();
    }
  }
}

/**
 * Serves the event stream: over a Node server, written straight to the response (its
 * `writableLength` is the backlog; `write()`'s backpressure is left to the socket); in
 * process, as a byte-counted `ReadableStream` body.
 */
export function serveEventStream(c: Context<AppEnv>, fanOut: FanOut, ready: string): Response {
  const outgoing = nodeBindings(c)?.outgoing;
  if (outgoing) {
    outgoing.writeHead(200, EVENT_STREAM_HEADERS);
    outgoing.flushHeaders();
    const leave = fanOut.add(
      {
        write: (chunk) => void outgoing.write(chunk),
        buffered: () => outgoing.writableLength,
        end: () => outgoing.end(),
        cut: () => outgoing.destroy(),
      },
      ready,
    );
    outgoing.once('close', leave);
    return RESPONSE_ALREADY_SENT;
  }
  let leave: () => void = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        leave = fanOut.add(
          {
            write: (chunk) => {
              if (open) controller.enqueue(chunk);
            },
            buffered: () => MAX_BUFFERED_BYTES - (controller.desiredSize ?? 0),
            end: () => {
              if (open) controller.close();
              open = false;
            },
            cut: () => {},
          },
          ready,
        );
      },
      cancel() {
        leave();
      },
    },
    { highWaterMark: MAX_BUFFERED_BYTES, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS });
}
