/**
 * SIGTERM with webhooks hanging at a receiver that never answers, with the real
 * CLI: the process exits well inside `docker stop`'s 10 s (it took 49.5 s, each attempt
 * waiting out its time limit), every request sent before the signal is answered, and the
 * cut deliveries stay pending in the --db file and go out on the next start.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { directPayment, headers } from '../../support/app.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-shutdown-'));
const children: ChildProcessWithoutNullStreams[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A webhook receiver; until `answer(true)` it reads each request and never answers. */
async function receiver(): Promise<{ url: string; ids: Set<string>; hits: () => number; answer: (yes: boolean) => void }> {
  let answer = false;
  const ids = new Set<string>();
  let hits = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      hits += 1;
      if (!answer) return;
      try {
        const event = JSON.parse(raw) as { ll_transaction_id?: string };
        if (event.ll_transaction_id) ids.add(event.ll_transaction_id);
      } catch {
        // not JSON
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: '200', message: 'SUCCESS' }));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    ids,
    hits: () => hits,
    answer: (yes) => (answer = yes),
  };
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The status of the first answer read on `socket` (rejects if it closes first). */
function statusOf(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = '';
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (match) resolve(Number(match[1]));
    });
    socket.on('error', (err) => reject(err));
    socket.on('close', () => reject(new Error(`closed before an answer: ${JSON.stringify(head.slice(0, 80))}`)));
  });
}

async function start(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet', ...args]);
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', () => undefined);
  // 'close', not 'exit': the process can exit before its output has been read from the pipes.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const deadline = Date.now() + 15_000;
  while (!/ready: url=(\S+)/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ready line: ${out}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  return { child, url: /ready: url=(\S+)/.exec(out)![1]!, exit };
}

describe('SIGTERM with webhooks hanging at the receiver', () => {
  it("exits within docker stop's 10 s, answers every request sent before it, and delivers the cut webhooks on the next start", async () => {
    const db = join(dir, 'shutdown.db');
    const hanging = await receiver();
    const first = await start(['--db', db, '--notification-url', hanging.url]);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${first.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ external_identifier: `stop-${i}` })),
      });
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { id: string }).id;
      ids.push(id);
      // settled: 40 webhooks, 8 at a time hanging at the receiver
      expect((await fetch(`${first.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' })).status).toBe(200);
    }
    const deadline = Date.now() + 10_000;
    while (hanging.hits() < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hanging.hits()).toBeGreaterThanOrEqual(1);

    // 20 requests written on open keep-alive connections (in the sandbox's socket buffers), then SIGTERM at once
    const { port } = new URL(first.url);
    const sockets = await Promise.all(Array.from({ length: 20 }, () => openSocket(Number(port))));
    const requests = sockets.map((socket, i) => {
      const answer = statusOf(socket);
      const h = headers();
      if (i % 2 === 0) {
        socket.write(
          `GET /v4/transactions?limit=5 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${h.authorization}\r\nX-Merchant-Account-Id: ${h['x-merchant-account-id']}\r\nConnection: keep-alive\r\n\r\n`,
        );
      } else {
        const payload = JSON.stringify(directPayment({ external_identifier: `late-${i}` }));
        socket.write(
          `POST /v4/transactions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${h.authorization}\r\nX-Merchant-Account-Id: ${h['x-merchant-account-id']}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: keep-alive\r\n\r\n${payload}`,
        );
      }
      return answer;
    });
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    const statuses = await Promise.allSettled(requests);
    for (const socket of sockets) socket.destroy();
    expect(await first.exit).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeLessThan(10_000); // docker stop's limit (it took 49.5 s)
    expect(statuses.map((s) => (s.status === 'fulfilled' ? s.value : String(s.reason)))).toEqual(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 200 : 201)),
    );

    // the next start on the same file delivers what was cut or never attempted
    const answering = hanging;
    answering.answer(true);
    const second = await start(['--db', db, '--notification-url', answering.url]);
    const until = Date.now() + 30_000;
    while (ids.some((id) => !answering.ids.has(id)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(ids.filter((id) => !answering.ids.has(id))).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  });
});
