/**
 * Puts the app on a socket: `startServer(options)` listens, sets the sandbox's base URL to
 * the real address, and `stop()` finishes in-flight requests and closes the database.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import type { SandboxOptions } from './config.js';
import type { Sandbox } from './sandbox.js';
import type { Db } from './store/database.js';

export interface RunningServer {
  sandbox: Sandbox;
  /** The database handle, for tests and benchmarks that inspect or seed it. */
  db: Db;
  server: ServerType;
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  /** Stops accepting connections, waits for in-flight requests and deliveries, closes the database. */
  stop(): Promise<void>;
}

/** Starts the sandbox on `options.host`:`options.port` (0 picks a free port). */
export function startServer(options: Partial<SandboxOptions> = {}): Promise<RunningServer> {
  const { app, sandbox, db } = createApp(options);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: sandbox.options.host, port: sandbox.options.port }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      const url = `http://${host}:${info.port}`;
      sandbox.baseUrl = sandbox.options.publicUrl ?? url;
      let stopping: Promise<void> | undefined;
      resolve({
        sandbox,
        db,
        server,
        url,
        port: info.port,
        stop() {
          stopping ??= new Promise<void>((done) => {
            // In-flight requests finish; keep-alive connections close as soon as they are idle.
            const idle = setInterval(() => {
              if ('closeIdleConnections' in server) server.closeIdleConnections();
            }, 50);
            server.close(() => {
              clearInterval(idle);
              done();
            });
            sandbox.events.end(); // open event streams (a panel) finish now
            // Anything still open after 2 s is cut.
            setTimeout(() => {
              if ('closeAllConnections' in server) server.closeAllConnections();
            }, 2000).unref();
          }).then(() => sandbox.close());
          return stopping;
        },
      });
    });
    server.once('error', (err) => {
      void sandbox.close();
      reject(err);
    });
  });
}
