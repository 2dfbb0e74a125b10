/**
 * The server's writes wait for the end of the event loop's turn, and nothing else about them
 * changes: every byte arrives, in order, before the connection's end; a client that does not
 * read still holds the server back; pipelined requests are answered in order.
 */
import { once } from 'node:events';
import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { coalesceWrites } from '../../../src/coalesced-writes.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT } from '../../support/app.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.close();
    await once(server, 'close');
  }
});

/** A server whose accepted sockets coalesce their writes and are handed to `serve`; and a client connected to it. */
async function pair(serve: (socket: Socket) => void): Promise<Socket> {
  const server = createServer((socket) => {
    coalesceWrites(socket);
    serve(socket);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(client, 'connect');
  return client;
}

/** Everything the client reads until the server ends the connection. */
async function readAll(client: Socket): Promise<string> {
  let data = '';
  client.setEncoding('utf8');
  client.on('data', (d: string) => (data += d));
  await once(client, 'end');
  client.destroy();
  return data;
}

describe('coalesced writes of an accepted socket', () => {
  it('sends the first write of a turn at once and the others at its end, in order, then the end of the stream', async () => {
    const client = await pair((socket) => {
      let sent = 0;
      for (let i = 0; i < 50; i++) socket.write(`${i},`, () => (sent += 1));
      socket.write(Buffer.from('buffer,'));
      socket.cork();
      socket.write('corked,');
      socket.write('together,');
      socket.uncork();
      // The turn's first write has gone to the kernel, the others not yet; by the check phase all of them have.
      const sentInTurn = socket.bytesWritten;
      // Done for the stream at once: the kernel had taken all that was written before.
      setImmediate(() => {
        socket.write(`callbacks ${sent}, bytes ${sentInTurn} then ${socket.bytesWritten}`);
        socket.end(', the end'); // held, and sent before the end of the stream
      });
    });
    const written = Array.from({ length: 50 }, (_, i) => `${i},`).join('') + 'buffer,corked,together,';
    const expected = `${written}callbacks 50, bytes 2 then ${written.length}, the end`;
    expect(await readAll(client)).toBe(expected);
  });

  it('sends what was written before the socket is destroyed in the same turn', async () => {
    const client = await pair((socket) => {
      socket.write('the '); // the turn's first write: at once
      socket.write('answer'); // held until the turn ends, or until the socket goes
      socket.destroy();
    });
    let data = '';
    client.setEncoding('utf8');
    client.on('data', (d: string) => (data += d));
    await once(client, 'close');
    expect(data).toBe('the answer');
  });

  it('keeps backpressure: a client that does not read holds the writes back', async () => {
    let refused = false;
    let server: Socket | undefined;
    const client = await pair((socket) => {
      server = socket;
      const chunk = 'x'.repeat(64 * 1024);
      // Until the kernel's buffers are full, each write is done at once; then they wait.
      const fill = (): void => {
        for (let i = 0; i < 16; i++) if (!socket.write(chunk)) refused = true;
        if (!refused) setImmediate(fill);
      };
      fill();
    });
    client.pause();
    await expect.poll(() => refused, { timeout: 10_000 }).toBe(true);
    expect(server!.writableLength).toBeGreaterThan(0);
    // Once the client reads, the held writes go and the stream drains.
    const drained = once(server!, 'drain');
    client.resume();
    await drained;
    client.destroy();
    server!.destroy();
  });
});

describe('the sandbox over coalesced writes', () => {
  let sandbox: RunningServer;
  beforeAll(async () => {
    sandbox = await startServer({ port: 0, ticker: false });
  });
  afterAll(() => sandbox.stop());

  it('answers pipelined requests on one connection in order', async () => {
    const socket = connect(sandbox.port, '127.0.0.1');
    await once(socket, 'connect');
    const get = (path: string, close = false): string =>
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${DIRECT.api_key}\r\nX-Merchant-Account-Id: ${DIRECT.account_id}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
    socket.write(
      get('/_sandbox/health') +
        get('/v4/transactions/00000000-0000-4000-8000-000000000000') +
        get('/v4/transactions?limit=1') +
        get('/_sandbox/health', true),
    );
    const data = await readAll(socket);
    const statuses = [...data.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 404, 200, 200]);
  });
});
