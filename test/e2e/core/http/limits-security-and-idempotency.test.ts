/**
 *, "safe to share", over real sockets on loopback: the streaming body limit, the
 * 431 envelope, stale idempotency keys after a crash, a reset that leaves no data in a
 * --db file, the event-stream cap, webhook targets and acknowledgements, log retention and
 * the start-up warning. Each test failed on the main branch before this change.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../../support/servers.js';
import { canonicalJson } from '../../../../src/core/http/idempotency.js';
import { createLogger } from '../../../../src/core/log.js';
import { startServer } from '../../../../src/server.js';
import { ACK, DIRECT, directPayment, headers, startReceiver } from '../../../support/app.js';

type Json = Record<string, unknown>;
const { defer, serve } = perTest();

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-safety-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'sandbox.db');
}

const until = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Streams up to `total` bytes as a chunked POST; stops when the answer arrives. Resolves with the status, the answer and the bytes written. */
function chunkedPost(url: string, total: number, contentLength?: number): Promise<{ status: number; body: string; written: number }> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const hdrs: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${DIRECT.api_key}`,
      'x-merchant-account-id': DIRECT.account_id,
    };
    if (contentLength !== undefined) hdrs['content-length'] = String(contentLength);
    const req = request(url, { method: 'POST', headers: hdrs }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, written });
      });
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    chunk[0] = 0x7b; // '{' then spaces: a body that would be JSON if it ever ended
    const pump = (): void => {
      while (!answered && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('limits before memory is spent', () => {
  it('a chunked body over the limit is a 413 envelope; reading stops at the limit (bytes written stay bounded)', async () => {
    const server = await serve();
    const total = 200 * 1024 * 1024;
    const rssBefore = process.memoryUsage().rss;
    const res = await chunkedPost(`${server.url}/v4/transactions`, total);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ type: 'error', code: 'request_too_large', status: 413 });
    // The server stopped reading: the client could push at most the limit plus socket buffers.
    expect(res.written).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
    // the control API too
    const control = await chunkedPost(`${server.url}/_sandbox/clock/advance`, total);
    expect(control.status).toBe(413);
  });

  it('a declared Content-Length over the limit is refused the same way: reading stops at the limit', async () => {
    const server = await serve();
    const size = 200 * 1024 * 1024;
    const res = await chunkedPost(`${server.url}/v4/transactions`, size, size);
    expect(res.status).toBe(413);
    expect(res.written).toBeLessThan(64 * 1024 * 1024);
  });

  it('headers over --max-header-size are a 431 with the envelope', async () => {
    const server = await serve({ maxHeaderSize: 4096 });
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(`GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(8000)}\r\n\r\n`);
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (text += c));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Json;
    expect(body).toMatchObject({ type: 'error', code: 'request_header_too_large', status: 431 });
    expect((body.details as unknown[]).length).toBe(1);
  });

  it('a cap on open event streams (--max-event-streams); a closed stream frees its place', async () => {
    const server = await serve({ maxEventStreams: 1 });
    const first = new AbortController();
    const open = await fetch(`${server.url}/_sandbox/events`, { signal: first.signal });
    expect(open.status).toBe(200);
    const second = await fetch(`${server.url}/_sandbox/events`);
    expect(second.status).toBe(429);
    expect(((await second.json()) as Json).code).toBe('limit_reached');
    first.abort();
    await until(async () => {
      const again = await fetch(`${server.url}/_sandbox/events`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
      const ok = again?.status === 200;
      if (again?.body) await again.body.cancel().catch(() => undefined);
      return ok;
    }, 'the stream place to be freed');
  });
});

describe('security over a socket', () => {
  it('refuses a cross-origin no-cors POST and a rebinding Host; the panel over HTTP is not framable', async () => {
    const server = await serve();
    const created = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment()),
    });
    const id = ((await created.json()) as Json).id as string;
    const settle = await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(settle.status).toBe(403);
    const rebound = await new Promise<number>((resolve, reject) => {
      request(`${server.url}/_sandbox/credentials`, { headers: { host: `rebind.attacker.example:${server.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(rebound).toBe(403);
    const panel = await fetch(`${server.url}/`);
    expect(panel.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('every answer carries nosniff once, refusals too', async () => {
    const server = await serve();
    const created = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment()),
    });
    const id = ((await created.json()) as Json).id as string;
    const rawHeaders = (path: string, extra: Record<string, string> = {}) =>
      new Promise<{ status: number; nosniff: string[] }>((resolve, reject) => {
        request(
          `${server.url}${path}`,
          { headers: { authorization: `Bearer ${DIRECT.api_key}`, 'x-merchant-account-id': DIRECT.account_id, ...extra } },
          (res) => {
            res.resume();
            const values: string[] = [];
            for (let i = 0; i < res.rawHeaders.length; i += 2)
              if (res.rawHeaders[i]!.toLowerCase() === 'x-content-type-options') values.push(res.rawHeaders[i + 1]!);
            resolve({ status: res.statusCode ?? 0, nosniff: values });
          },
        )
          .on('error', reject)
          .end();
      });
    for (const [path, extra, status] of [
      [`/v4/transactions/${id}`, {}, 200],
      ['/v4/transactions?limit=5', {}, 200],
      ['/v4/transactions/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5', {}, 404],
      ['/v4/transactions/tx_missing', {}, 400],
      ['/_sandbox/health', {}, 200],
      ['/', {}, 200],
      ['/_sandbox/credentials', { host: `rebind.attacker.example:${server.port}` }, 403],
    ] as const) {
      expect(await rawHeaders(path, extra), path).toEqual({ status, nosniff: ['nosniff'] });
    }
  });

  it('listening beyond loopback without --admin-token prints a warning at start; with one, none', async () => {
    const lines: string[] = [];
    const logger = createLogger({ format: 'text', out: () => undefined, err: (l) => lines.push(l) });
    await serve({ host: '0.0.0.0' }, { logger });
    expect(lines.join('\n')).toMatch(/without --admin-token/);
    lines.length = 0;
    await serve({ host: '0.0.0.0', adminToken: 'a-long-enough-token' }, { logger });
    await serve({ host: '127.0.0.1' }, { logger });
    expect(lines).toEqual([]);
  });
});

describe('idempotency after a crash', () => {
  it('a key left `processing` is released at start-up: the retry runs instead of 409 for 24 hours', async () => {
    const db = tempDb();
    const payment = directPayment({ external_identifier: 'crash-1' });
    const first = await serve({ db });
    // What a SIGKILL in the middle of a create leaves behind: the key claimed, no answer stored.
    const fingerprint = createHash('sha256')
      .update(`POST /v4/transactions\n${canonicalJson(payment)}`)
      .digest('hex');
    first.httpRecords.idempotency.claim(DIRECT.account_id, 'crash-key', fingerprint, first.core.clock.nowMs());
    await first.stop();
    const second = await serve({ db });
    const retry = await fetch(`${second.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(DIRECT, { 'idempotency-key': 'crash-key' }),
      body: JSON.stringify(payment),
    });
    expect(retry.status, await retry.clone().text()).toBe(201);
  });
});

describe('secrets in a --db file', () => {
  it('a reset leaves no card data or keys in free pages of the file (secure_delete, WAL emptied)', async () => {
    const db = tempDb();
    const server = await serve({ db });
    const marker = 'MARKER-7f3a9c-SECRET';
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${server.url}/v4/transactions?api_key=${marker}`, {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': `${marker}-${i}` }),
        body: JSON.stringify(directPayment({ description: `${marker} order ${i}`, external_identifier: `${marker}-${i}`, amount: 'bad' })),
      });
      expect(res.status).toBe(400); // failures keep their body in the request log
      await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': `${marker}-ok-${i}` }),
        body: JSON.stringify(directPayment({ description: `${marker} order ${i}` })),
      });
    }
    const files = [db, `${db}-wal`];
    const holds = (): boolean => files.some((f) => existsSync(f) && readFileSync(f).includes(marker));
    expect(holds()).toBe(true);
    expect((await fetch(`${server.url}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    expect(holds()).toBe(false);
    await server.stop();
    expect(holds()).toBe(false);
  });
});

describe('webhook targets and acknowledgements', () => {
  it('never delivers to the sandbox itself (a merchant URL of /_sandbox/reset), checked again before delivery', async () => {
    const probe = await startServer({ port: 0, ticker: false });
    const port = probe.port;
    await probe.stop();
    const server = await serve({ port, notificationUrl: `http://127.0.0.1:${port}/_sandbox/reset` });
    const created = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment()),
    });
    const id = ((await created.json()) as Json).id as string;
    // when accepted, as a per-transaction notification_url
    const refused = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ notification_url: `http://localhost:${port}/_sandbox/reset` })),
    });
    expect(refused.status).toBe(400);
    await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
    await until(() => server.core.queries.deliveries.forResource(id).some((d) => d.attempts > 0), 'the delivery attempt');
    const [delivery] = server.core.queries.deliveries.forResource(id);
    expect(delivery!.status).toBe('pending');
    expect(server.core.queries.deliveries.attemptsOf(delivery!.id)[0]!.error).toMatch(/itself/);
    expect(server.features.transactions.queries.byIdAnyAccount(id)).toBeDefined(); // not wiped
  });

  it('an acknowledgement over 64 KiB counts as delivered; a redirect is not followed', async () => {
    const receiver = await startReceiver();
    defer(() => receiver.close());
    receiver.respond = () => ({ status: 200, body: JSON.stringify({ code: '200', message: 'SUCCESS', padding: 'x'.repeat(100 * 1024) }) });
    const server = await serve({ notificationUrl: receiver.url });
    const created = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment()),
    });
    const id = ((await created.json()) as Json).id as string;
    await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
    await until(() => server.core.queries.deliveries.forResource(id).some((d) => d.attempts > 0), 'the delivery attempt');
    expect(server.core.queries.deliveries.forResource(id)[0]!.status).toBe('delivered');

    const target = await startReceiver();
    defer(() => target.close());
    const redirector: Server = createServer((_req, res) => res.writeHead(307, { location: target.url }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    defer(() => new Promise<void>((r) => redirector.close(() => r())));
    const redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
    const tx2 = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ notification_url: redirectUrl })),
    });
    const id2 = ((await tx2.json()) as Json).id as string;
    await fetch(`${server.url}/_sandbox/transactions/${id2}/settle`, { method: 'POST' });
    await until(() => server.core.queries.deliveries.forResource(id2).some((d) => d.attempts > 0), 'the redirected attempt');
    const d2 = server.core.queries.deliveries.forResource(id2)[0]!;
    expect(d2.status).toBe('pending');
    expect(server.core.queries.deliveries.attemptsOf(d2.id)[0]!.error).toMatch(/307.*redirects are not followed/);
    expect(target.received).toHaveLength(0);
    void ACK;
  });

  it('the delivery log keeps only the newest --delivery-log-limit finished deliveries', async () => {
    const receiver = await startReceiver();
    defer(() => receiver.close());
    const server = await serve({ notificationUrl: receiver.url, deliveryLogLimit: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment()),
      });
      const id = ((await created.json()) as Json).id as string;
      ids.push(id);
      await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
      await until(() => server.core.queries.deliveries.forResource(id).some((d) => d.status === 'delivered'), `delivery ${i}`);
    }
    const count = (server.db.prepare('SELECT count(*) AS n FROM deliveries').get() as { n: number }).n;
    expect(count).toBe(2);
    expect(server.core.queries.deliveries.forResource(ids[3]!)).toHaveLength(1);
    const orphans = (
      server.db.prepare('SELECT count(*) AS n FROM delivery_attempts WHERE delivery_id NOT IN (SELECT id FROM deliveries)').get() as {
        n: number;
      }
    ).n;
    expect(orphans).toBe(0);
  });
});
