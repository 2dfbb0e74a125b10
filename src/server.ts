/**
 * Puts the app on a socket: `startServer(options)` listens, sets the sandbox's base URL to
 * the real address, and `stop()` finishes in-flight requests and closes the database.
 */
import { type IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import type { SandboxOptions } from './core/config.js';
import type { FeatureStores } from './sqlite-store.js';
import type { HttpRecords } from './core/http/ports.js';
import type { Core } from './core/core.js';
import type { Features, SandboxLifecycle } from './compose.js';
import type { Db } from './core/db/database.js';
import { isLoopbackHost } from './core/config.js';
import { createLogger, type Logger } from './core/log.js';
import type { RealTime } from './core/webhooks/crash-backoff.js';
import type { FixtureObjects, PreparedStartupFixtures } from './features/fixtures/index.js';
import { envelopedServer } from './server-refusals.js';
import { coalesceWrites } from './coalesced-writes.js';
import { collectWhenIdle, type IdleCollectionOptions } from './idle-collection.js';
import { SandboxError } from './core/domain/errors.js';
import { errorBody } from './core/http/errors.js';

/** The envelope of a request the HTTP parser refused before the app saw it (431, 400). */
function parserRefusal(err: Error & { code?: string }): { status: number; reason: string; body: string } {
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  const refusal = tooLarge
    ? new SandboxError(
        status,
        'request_header_too_large',
        'The request line and headers are larger than the sandbox accepts (--max-header-size)',
        [{ type: 'too_large', pointer: '', message: 'Headers too large', location: 'header' }],
      )
    : new SandboxError(status, 'bad_request', 'The request is not valid HTTP');
  return { status, reason, body: JSON.stringify(errorBody(refusal)) };
}

/** Answers a request the HTTP parser refused with the spec's envelope, then closes the connection. */
function onClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || (err.code !== 'HPE_HEADER_OVERFLOW' && err.code !== 'HPE_INVALID_METHOD' && !err.code?.startsWith('HPE_'))) {
    socket.destroy();
    return;
  }
  const { status, reason, body } = parserRefusal(err);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Shutdown (SIGTERM, `docker stop` kills after 10 s): requests already sent are read first
 * (for at most `READ_PENDING_MS` while connections keep arriving), then connections with nothing
 * in flight close at once; webhook attempts under way get
 * `WEBHOOK_GRACE_MS`, and connections still open after `CUT_AFTER_MS` are cut: well under 5 s
 * in all, and a few milliseconds when nothing is in flight.
 */
const WEBHOOK_GRACE_MS = 1500;
const CUT_AFTER_MS = 3000;
const READ_PENDING_MS = 500;

/**
 * A connection with nothing in flight that Node does not count idle: it has sent no byte (a
 * client's spare connection, or one left after it gave up on a request), so no request is
 * being read or answered on it.
 */
const quiet = (socket: Socket): boolean => socket.bytesRead === 0 && !(socket as Socket & { _httpMessage?: unknown })._httpMessage;

/** Runs `fn` after the event loop has polled its sockets twice (check phase, twice). */
const afterReads = (fn: () => void): void => void setImmediate(() => setImmediate(fn));

/** The answer to a request held while start-up fixtures were applied, when they failed: the sandbox stops. */
function notStarted(): Response {
  const refusal = new SandboxError(503, 'service_unavailable', 'The sandbox did not start: its fixtures were refused');
  return new Response(JSON.stringify(errorBody(refusal)), {
    status: 503,
    headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', connection: 'close' },
  });
}

/** How long after listening the key pool starts filling. */
const KEY_POOL_DELAY_MS = 200;

export interface RunningServer {
  /** What the core owns: options, clock, queries, the change feed, the base URL. */
  core: Core;
  /** Each feature's services, for tests and benchmarks that drive them directly. */
  features: Features;
  lifecycle: SandboxLifecycle;
  /** The HTTP layer's own records and each feature's storage, for tests and benchmarks that seed or inspect records. */
  httpRecords: HttpRecords;
  stores: FeatureStores;
  /** The database handle, for tests and benchmarks that inspect or seed it. */
  db: Db;
  server: ServerType;
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  /** The objects of the `fixtures` option (`--fixtures`), by name, as applied once listening. */
  fixtures: FixtureObjects;
  /** Stops accepting connections, waits for in-flight requests and deliveries, closes the database. */
  stop(): Promise<void>;
}

/** What a server is given besides its options. */
export interface ServerRuntime {
  /** Where the sandbox and its server log (the CLI's, from --log-format and --quiet); default a new text logger. */
  logger?: Logger;
  /** Real time for the webhook dispatcher's crash back-off (default: performance.now and timers); tests shorten its waits. */
  realTime?: RealTime;
  /**
   * Full garbage collections once traffic has stopped (`idle-collection.ts`): on for the CLI,
   * which owns its process; off by default, so a sandbox started inside a test suite's process
   * leaves that process's collector alone. Tests pass the options to shorten the watch.
   */
  collectWhenIdle?: boolean | Partial<IdleCollectionOptions>;
}

/** Starts the sandbox on `options.host`:`options.port` (0 picks a free port). */
export function startServer(
  options: Partial<SandboxOptions> = {},
  { logger = createLogger(), realTime, collectWhenIdle: idleCollection = false }: ServerRuntime = {},
): Promise<RunningServer> {
  const { app, core, features, lifecycle, httpRecords, stores, db } = createApp(options, { logger, ...(realTime ? { realTime } : {}) });
  // Fixtures (--fixtures) are checked before listening, and applied once the sandbox knows its
  // address (payment links); requests that arrive meanwhile wait until they are applied (the
  // first answer, a health check's, comes once they are all in place). A bad one stops the start.
  // A document this database already holds (a --db file or a restored snapshot seeded with it)
  // is not applied again.
  let prepared: PreparedStartupFixtures | undefined;
  try {
    prepared = lifecycle.prepareFixtures();
  } catch (err) {
    return lifecycle.close().then(() => Promise.reject(err as Error));
  }
  // While start-up fixtures are applied (their advances yield to the event loop), requests wait.
  let applying: Promise<boolean> | undefined;
  const fetch: typeof app.fetch = (request, env, ctx) =>
    applying === undefined
      ? app.fetch(request, env, ctx)
      : applying.then((started) => (started ? app.fetch(request, env, ctx) : notStarted()));
  return new Promise((resolve, reject) => {
    const { host, port, maxHeaderSize, adminToken } = core.options;
    if (!isLoopbackHost(host) && adminToken === undefined) {
      logger.warn(
        'start.unprotected',
        `listening on ${host} without --admin-token: anyone who can reach this address can read every account's keys and drive the control API`,
        { host },
      );
    }
    let closing = false;
    /**
     * An answer whose head is written once the server is stopping says `Connection: close` (one
     * in flight then, or one to a request that arrives after), so no client sends another
     * request on its connection. Asked at the head, not tracked per request: nothing is noted
     * for an answer while the server runs.
     */
    class SandboxResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
      override writeHead(...args: unknown[]): this {
        if (closing) this.shouldKeepAlive = false;
        return Reflect.apply(ServerResponse.prototype.writeHead, this, args) as this;
      }
    }
    const server = serve(
      {
        fetch,
        hostname: host,
        port,
        serverOptions: { maxHeaderSize, ServerResponse: SandboxResponse },
        createServer: envelopedServer(fetch, host),
      },
      (info: AddressInfo) => {
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        const url = `http://${host}:${info.port}`;
        core.baseUrl = core.options.publicUrl ?? url;
        if (prepared === undefined) {
          listening({}, url, info.port);
          return;
        }
        const applied = lifecycle.applyFixtures(prepared);
        applying = applied.then(
          () => true,
          () => false,
        );
        applied.then(
          (fixtures) => {
            applying = undefined;
            listening(fixtures, url, info.port);
          },
          (err: unknown) => {
            server.close();
            void lifecycle.close().then(() => reject(err as Error));
          },
        );
      },
    );
    /** Listening, start-up fixtures applied: the key pool starts filling, and the server is handed over. */
    const listening = (fixtures: FixtureObjects, url: string, port: number): void => {
      // Account key pairs are made ahead of time, off the main thread (--key-pool): shortly
      // after listening, so that the first requests do not share the CPU with them.
      const fillKeys = setTimeout(() => lifecycle.fillKeyPool(), KEY_POOL_DELAY_MS).unref();
      const stopIdleCollection = idleCollection === false ? () => {} : collectWhenIdle(idleCollection === true ? {} : idleCollection);
      let stopping: Promise<void> | undefined;
      resolve({
        core,
        features,
        lifecycle,
        httpRecords,
        stores,
        db,
        server,
        url,
        port,
        fixtures,
        stop() {
          clearTimeout(fillKeys);
          stopIdleCollection();
          stopping ??= new Promise<void>((done) => {
            closing = true; // answers whose head is written from now on close their connection
            // Webhooks under way get a moment, then are cut and stay pending for the next start.
            const webhooks = lifecycle.drainWebhooks(WEBHOOK_GRACE_MS);
            // Requests that arrived just before the signal are read first: until its request is
            // read, a connection looks idle, and closing it (or the listener, with connections
            // still waiting to be accepted) answered ECONNRESET (16 of 20 under load). A timer
            // runs before the poll phase that reads sockets, so from a timer `afterReads` waits
            // for two polls: one accepts waiting connections, the next reads them. Node accepts
            // only some of a burst per poll, so this repeats while connections keep arriving, for
            // at most `READ_PENDING_MS`; then what is quiet closes at once.
            const finish = (): void => {
              // In-flight requests finish (their answers close their connections); quiet ones close now.
              const closeQuiet = (): void => {
                if ('closeIdleConnections' in server) server.closeIdleConnections();
                for (const socket of connections) if (quiet(socket)) socket.destroy();
              };
              const idle = setInterval(() => afterReads(closeQuiet), 50);
              server.close(() => {
                clearInterval(idle);
                void webhooks.then(done, done);
              });
              closeQuiet();
              core.events.end(); // open event streams (a panel) finish now
              // Anything still open after 3 s is cut.
              setTimeout(() => {
                if ('closeAllConnections' in server) server.closeAllConnections();
              }, CUT_AFTER_MS).unref();
            };
            const settle = (seen: number, until: number): void =>
              afterReads(() => (accepted !== seen && Date.now() < until ? settle(accepted, until) : finish()));
            setTimeout(() => settle(accepted, Date.now() + READ_PENDING_MS));
          }).then(() => lifecycle.close());
          return stopping;
        },
      });
    };
    server.on('clientError', onClientError);
    // Every open connection: one that has sent nothing yet counts as busy to Node (so that its
    // headers time out), and would hold a stop until the cut.
    const connections = new Set<Socket>();
    let accepted = 0;
    server.on('connection', (socket: Socket) => {
      accepted += 1;
      connections.add(socket);
      coalesceWrites(socket);
      socket.once('close', () => connections.delete(socket));
    });
    server.once('error', (err) => {
      void lifecycle.close();
      reject(err);
    });
  });
}
