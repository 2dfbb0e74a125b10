/**
 *, "crash through the event stream", over real sockets against the built CLI: 30
 * event streams whose clients never read (paused sockets) plus 20,000 requests (401s with
 * 15 KB paths, and creates) leave the sandbox's resident memory flat. On main the streams
 * queued every event without limit: the process grew by gigabytes and died of "JavaScript
 * heap out of memory" (exit 134).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DIRECT, directPayment } from '../../support/app.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const cleanup: (() => void)[] = [];
afterAll(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

/** The resident set of process `pid`, in MB (Linux). */
const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** One request over a kept-alive connection; resolves with the status. */
function send(agent: Agent, port: number, method: string, path: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers:
          body === undefined
            ? {}
            : { authorization: `Bearer ${DIRECT.api_key}`, 'x-merchant-account-id': DIRECT.account_id, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.runIf(process.platform === 'linux')('event streams under load', () => {
  it('RSS stays flat with 30 stalled event streams and 20,000 requests', { timeout: 240_000 }, async () => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet', '--request-log-limit', '1000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    let exitCode: number | null | undefined;
    child.on('exit', (code) => (exitCode = code));
    cleanup.push(() => child.kill('SIGKILL'));
    const deadline = Date.now() + 20_000;
    const ready = /ready: url=http:\/\/127\.0\.0\.1:(\d+)/;
    while (!ready.test(out)) {
      if (Date.now() > deadline || exitCode !== undefined) throw new Error(`no banner: ${out} ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = Number(ready.exec(out)![1]);

    // 30 clients that ask for the stream and never read a byte of it.
    const stalled: Socket[] = [];
    for (let i = 0; i < 30; i++) {
      const socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => {});
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(`GET /_sandbox/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      socket.pause();
      stalled.push(socket);
    }
    cleanup.push(() => stalled.forEach((s) => s.destroy()));

    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    cleanup.push(() => agent.destroy());
    const long = `/v4/transactions/${'x'.repeat(15_000)}`;
    const create = JSON.stringify(directPayment());
    let sent = 0;
    const statuses = new Map<number, number>();
    const load = async (total: number): Promise<void> => {
      const worker = async (): Promise<void> => {
        while (sent < total) {
          const n = sent++;
          const status =
            n % 10 === 0 ? await send(agent, port, 'POST', '/v4/transactions', create) : await send(agent, port, 'GET', `${long}${n}`);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    };

    await load(3_000); // warm-up: the stalled streams fill and are dropped, the heap settles
    const before = rssMb(child.pid!);
    await load(20_000);
    const after = rssMb(child.pid!);

    expect(exitCode, err).toBeUndefined();
    expect(statuses.get(401)).toBe(18_000);
    expect(statuses.get(201)).toBe(2_000);
    // Flat: 30 streams each queuing 17,000 events of 15 KB would be about 7.6 GB.
    expect(after - before, `RSS ${before.toFixed(0)} MB -> ${after.toFixed(0)} MB`).toBeLessThan(80);
    expect(after).toBeLessThan(400);
    const health = await send(agent, port, 'GET', '/_sandbox/health');
    expect(health).toBe(200);
  });
});
