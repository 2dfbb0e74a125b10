/**
 * Stopping the server (what SIGTERM does) while an answer is in flight: that answer still
 * arrives, and says `Connection: close`, so the client sends nothing more on its connection.
 * Over a real socket, with `--latency` keeping the request in flight.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server.js';
import { headers } from '../../support/app.js';

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
