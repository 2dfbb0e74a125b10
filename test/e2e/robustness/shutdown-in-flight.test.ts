/**
 * Stopping the server (what SIGTERM does) while an answer is in flight: that answer still
 * arrives, and says `Connection: close`, so the client sends nothing more on its connection.
 * Over a real socket, with `--latency` keeping the request in flight. With nothing in flight,
 * a stop finishes at once: idle keep-alive connections, ones that sent nothing and ones a
 * client left after giving up on a held request close without a wait.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server.js';
import { DIRECT, headers } from '../../support/app.js';

/** How long `server.stop()` took, in ms. */
async function timeStop(server: { stop(): Promise<void> }): Promise<number> {
  const started = performance.now();
  await server.stop();
  return performance.now() - started;
}

/** The head of the first answer read on `socket`. */
function headOf(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed before an answer: ${JSON.stringify(text.slice(0, 80))}`)));
  });
}

describe('an answer in flight when the server stops', () => {
  it('carries Connection: close', async () => {
    const server = await startServer({ port: 0, ticker: false, latency: { p50Ms: 600, p99Ms: 600 } });
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(server.port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    try {
      const head = headOf(socket);
      const lines = Object.entries(headers()).map(([k, v]) => `${k}: ${v}`);
      socket.write(
        ['GET /v4/transactions HTTP/1.1', `Host: 127.0.0.1:${server.port}`, 'Connection: keep-alive', ...lines, '', ''].join('\r\n'),
      );
      await new Promise((r) => setTimeout(r, 200)); // the request is read and waits out its latency
      const stopped = server.stop();
      const answer = await head;
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer.toLowerCase()).toContain('connection: close');
      await stopped;
    } finally {
      socket.destroy();
    }
  });
});

describe('a stop with nothing in flight', () => {
  // Each took at least 500 ms (an idle connection) or 3.5 s (one that sent nothing, cut at 3 s).
  it('finishes at once with an idle keep-alive connection and one that sent nothing open', async () => {
    const server = await startServer({ port: 0, ticker: false });
    expect((await fetch(`${server.url}/v4/transactions`, { headers: headers() })).status).toBe(200); // its connection stays open, idle
    const silent = await new Promise<Socket>((resolve, reject) => {
      const s = connect(server.port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    try {
      const closed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
      expect(await timeStop(server)).toBeLessThan(400);
      await closed;
    } finally {
      silent.destroy();
    }
  });

  it('finishes at once after a client gave up on a request held by a timeout fault', async () => {
    const server = await startServer({ port: 0, ticker: false });
    const gaveUp = new AbortController();
    const held = fetch(`${server.url}/v4/transactions`, {
      headers: headers(DIRECT, { 'x-sandbox-fault': 'timeout=60s' }),
      signal: gaveUp.signal,
    }).then(
      () => 'answered',
      (err: Error) => err.name,
    );
    await new Promise((r) => setTimeout(r, 200)); // the request is read and held
    gaveUp.abort();
    expect(await held).toBe('AbortError');
    expect(await timeStop(server)).toBeLessThan(400);
  });
});
