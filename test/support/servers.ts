/**
 * Sandboxes on a real socket for a test file, and whatever else a test starts: each is stopped
 * or removed after the test, the last started first.
 */
import { afterEach } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { startReceiver, type Receiver } from './receiver.js';

type Undo = () => Promise<void> | void;

export interface PerTest {
  /** Runs `undo` after the current test (after what was deferred later). */
  defer(undo: Undo): void;
  /** A sandbox on a free loopback port without its ticker (unless `options` say so), stopped after the test. */
  serve(options?: Parameters<typeof startServer>[0], runtime?: Parameters<typeof startServer>[1]): Promise<RunningServer>;
  /** A webhook receiver on a free loopback port (checking the demo signature), closed after the test. */
  receive(): Promise<Receiver>;
}

/** Registers the file's `afterEach` that undoes what its tests started. */
export function perTest(): PerTest {
  const undos: Undo[] = [];
  afterEach(async () => {
    for (const undo of undos.splice(0).reverse()) await undo();
  });
  return {
    defer: (undo) => void undos.push(undo),
    async serve(options = {}, runtime = {}) {
      const server = await startServer({ port: 0, ticker: false, ...options }, runtime);
      undos.push(() => server.stop());
      return server;
    },
    async receive() {
      const receiver = await startReceiver();
      undos.push(() => receiver.close());
      return receiver;
    },
  };
}
