/**
 * Event streams whose clients stop reading, over real sockets: 30 clients ask for
 * `/_sandbox/events` and never read a byte (paused sockets), then 15 KB-path requests pile up
 * events for them. Each stalled stream is dropped once it is too far behind (the sandbox stops
 * queuing for it: nothing listens any more), and the sandbox still answers. The bound itself is
 * checked through the app in api/sandbox/event-stream-bound; the resident memory of the built
 * CLI under 20,000 such requests is measured by `npm run soak` (round 3).
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../support/servers.js';

const { defer, serve } = perTest();

/** One request over a kept-alive connection; resolves with the status. */
function send(agent: Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: '127.0.0.1', port, method: 'GET', path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('event streams whose clients never read', () => {
  it('are dropped once far behind, over real sockets, and the sandbox still answers', async () => {
    const server = await serve({ maxEventStreams: 30 });
    const { port } = server;
    const stalled: Socket[] = [];
    defer(() => stalled.forEach((s) => s.destroy()));
    for (let i = 0; i < 30; i++) {
      const socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => {});
      await new Promise<void>((r) => socket.once('connect', () => r()));
      // The stream's first bytes (its headers) arrive; from then on the client reads nothing.
      const opened = new Promise<string>((r) => socket.once('data', (d: Buffer) => r(d.toString())));
      socket.write(`GET /_sandbox/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expect(await opened).toMatch(/^HTTP\/1\.1 200/);
      socket.pause();
      stalled.push(socket);
    }
    expect(server.core.events.listened).toBe(true);

    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    defer(() => agent.destroy());
    const long = `/v4/transactions/${'x'.repeat(15_000)}`;
    let sent = 0;
    const statuses = new Map<number, number>();
    // 15 KB events until the sockets' buffers and then each stream's bound are full and every
    // stalled stream is dropped (about 350 requests here; the cap is far above it).
    const worker = async (): Promise<void> => {
      while (sent < 5_000 && server.core.events.listened) {
        sent += 1;
        const status = await send(agent, port, `${long}${sent}`);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(server.core.events.listened, `still listening after ${sent} requests`).toBe(false);
    expect([...statuses.keys()]).toEqual([401]);
    expect(await send(agent, port, '/_sandbox/health')).toBe(200);
  });
});
