/**
 *, over real sockets: the webhook address guard knows IPv4 written as IPv6 (and the
 * other forms), checks the address actually connected to, and guards `POST
 * /_sandbox/check-webhooks` too, which also reads a merchant's answer only up to 1 MiB.
 * Each test failed on main: `[::ffff:7f00:1]:<own port>/_sandbox/reset` was accepted and
 * wiped every record, and check-webhooks reached any address and read a huge answer whole.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { perTest } from '../../../support/servers.js';
import type { RunningServer } from '../../../../src/server.js';
import { TargetRefusedError, createPoster } from '../../../../src/core/webhooks/post.js';
import { directPayment, headers, startReceiver } from '../../../support/app.js';
import { freePort } from '../../../support/ports.js';

type Json = Record<string, unknown>;
const { defer, serve } = perTest();

/** A port that was free a moment ago (to start a sandbox whose own URL is known before it listens). */
const until = async (check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const checkWebhooks = async (server: RunningServer, url: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${server.url}/_sandbox/check-webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

describe('the sandbox never delivers to itself, whatever form its address takes', () => {
  it("with --allowed-hosts '*', [::ffff:7f00:1]:<own port>/_sandbox/reset is refused when accepted and before delivery; nothing is wiped", async () => {
    const port = await freePort();
    const reset = `http://[::ffff:7f00:1]:${port}/_sandbox/reset`;
    const server = await serve({ port, allowedHosts: ['*'], notificationUrl: reset });
    const created = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment()),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as Json).id as string;

    for (const url of [
      reset,
      `http://[::ffff:127.0.0.1]:${port}/_sandbox/reset`,
      `http://0x7f.1:${port}/_sandbox/reset`,
      `http://2130706433:${port}/_sandbox/reset`,
    ]) {
      const refused = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ notification_url: url })),
      });
      const body = (await refused.json()) as Json;
      expect(refused.status, url).toBe(400);
      expect(body).toMatchObject({ type: 'error', code: 'bad_request', status: 400 });
      expect(body.details).toEqual([
        expect.objectContaining({ pointer: '/notification_url', location: 'body', message: expect.stringMatching(/itself/) }),
      ]);
    }
    // The default --notification-url is the sandbox's own reset: the delivery is refused, not sent.
    await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
    await until(() => server.core.queries.deliveries.forResource(id).some((d) => d.attempts > 0), 'the delivery attempt');
    const [delivery] = server.core.queries.deliveries.forResource(id);
    expect(server.core.queries.deliveries.attemptsOf(delivery!.id)[0]!.error).toMatch(
      /target refused: the sandbox does not send webhooks to itself/,
    );
    expect(server.features.transactions.queries.byIdAnyAccount(id)).toBeDefined(); // not wiped
  });

  it('metadata addresses written as IPv6 are refused with the envelope at /notification_url', async () => {
    const server = await serve();
    for (const url of [
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[::ffff:100.100.100.200]/',
      'http://[::ffff:0:0]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://0251.0376.0251.0376/',
      'http://168.63.129.16/machine',
      'http://192.0.0.192/opc/v2/instance/',
      'http://[64:ff9b:1::a9fe:a9fe]/',
      'http://[fec0::1]/',
    ]) {
      const res = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(directPayment({ notification_url: url })),
      });
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { details: Json[] }).details[0]).toMatchObject({ pointer: '/notification_url', location: 'body' });
    }
  });
});

describe('the address connected to is the one checked', () => {
  it('a name that resolves to a refused address is refused at connect time; nothing reaches the receiver', async () => {
    const receiver = await startReceiver();
    defer(() => receiver.close());
    const port = Number(new URL(receiver.url).port);
    const seen: string[] = [];
    const guarded = createPoster({
      timeoutMs: 5000,
      maxFreePerOrigin: 1,
      guard: (address, p) => {
        seen.push(`${address}:${p}`);
        return /^(127\.|::1$|::ffff:7f00:1$)/.test(address) ? `${address} is refused` : null;
      },
    });
    defer(() => guarded.close());
    // `localhost` passes any check of the written name; it resolves to 127.0.0.1 (or ::1) when connecting.
    const err = await guarded.post(`http://localhost:${port}/hook`, { 'content-type': 'application/json' }, '{}').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TargetRefusedError);
    expect((err as Error).message).toMatch(/^target refused: .* is refused; the merchant was not contacted$/);
    expect(seen.some((s) => s.endsWith(`:${port}`))).toBe(true);
    // an IP literal is checked before connecting too
    await expect(guarded.post(`http://[::ffff:7f00:1]:${port}/hook`, {}, '{}')).rejects.toBeInstanceOf(TargetRefusedError);
    expect(receiver.received).toHaveLength(0);

    const open = createPoster({ timeoutMs: 5000, maxFreePerOrigin: 1, guard: () => null });
    defer(() => open.close());
    expect((await open.post(`http://localhost:${port}/hook`, { 'content-type': 'application/json' }, '{}')).status).toBe(200);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('POST /_sandbox/check-webhooks', () => {
  it('applies the webhook target guard: metadata and own addresses in any form, and --webhook-allow-hosts', async () => {
    const port = await freePort();
    const server = await serve({ port, allowedHosts: ['*'] });
    const created = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment()),
    });
    const id = ((await created.json()) as Json).id as string;
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      `http://[::ffff:7f00:1]:${port}/_sandbox/reset`,
      `http://localhost:${port}/_sandbox/reset`,
    ]) {
      const { status, body } = await checkWebhooks(server, url);
      expect(status, url).toBe(400);
      expect(body).toMatchObject({
        type: 'error',
        status: 400,
        details: [
          expect.objectContaining({ pointer: '/url', location: 'body', message: expect.stringMatching(/^Webhook target refused/) }),
        ],
      });
    }
    expect(server.features.transactions.queries.byIdAnyAccount(id)).toBeDefined(); // not wiped

    // The state URL is guarded as the delivery URL is.
    for (const stateUrl of ['http://168.63.129.16/', 'http://192.0.0.192/', 'http://[64:ff9b:1::a9fe:a9fe]/', 'http://[fec0::1]/']) {
      const res = await fetch(`${server.url}/_sandbox/check-webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'http://hooks.example/', state_url: stateUrl }),
      });
      expect(res.status, stateUrl).toBe(400);
      expect(((await res.json()) as { details: Json[] }).details[0]).toMatchObject({ pointer: '/state_url', location: 'body' });
    }

    const receiver = await startReceiver();
    defer(() => receiver.close());
    const narrow = await serve({ webhookAllowHosts: ['hooks.example'] });
    const { status, body } = await checkWebhooks(narrow, receiver.url);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toMatch(/not in --webhook-allow-hosts/);
    expect(receiver.received).toHaveLength(0);
  });

  it(
    'reads an answer only up to 1 MiB: a handler streaming a huge answer is cut off, and memory does not balloon',
    { timeout: 60_000 },
    async () => {
      const LIMIT = 256 * 1024 * 1024; // the server stops by itself after 256 MiB per answer
      let written = 0;
      const huge: Server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let sent = 0;
          const pump = (): void => {
            while (!res.destroyed && sent < LIMIT) {
              sent += chunk.length;
              written += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            if (!res.destroyed) res.end();
          };
          res.on('error', () => {});
          pump();
        });
      });
      await new Promise<void>((r) => huge.listen(0, '127.0.0.1', r));
      defer(
        () =>
          new Promise<void>((r) => {
            huge.closeAllConnections();
            huge.close(() => r());
          }),
      );
      const server = await serve();
      const rssBefore = process.memoryUsage().rss;
      const { status, body } = await checkWebhooks(server, `http://127.0.0.1:${(huge.address() as AddressInfo).port}/hook`);
      const rssAfter = process.memoryUsage().rss;
      expect(status).toBe(200);
      const report = body as {
        passed: boolean;
        checks: { id: string; passed: boolean; exchanges: { status: number | null; error: string | null; body: string | null }[] }[];
      };
      expect(report.passed).toBe(false);
      const first = report.checks.find((c) => c.id === 'payment_succeeded')!;
      expect(first.passed).toBe(false);
      expect(first.exchanges[0]).toMatchObject({ status: 200, error: expect.stringMatching(/answer larger than 1048576 bytes/) });
      expect(first.exchanges[0]!.body!.length).toBeLessThanOrEqual(4096);
      // 12 answers of 256 MiB would be 3 GiB: each was cut after its first MiB (plus socket buffers).
      const exchanges = report.checks.reduce((n, c) => n + c.exchanges.length, 0);
      expect(written).toBeLessThan(exchanges * 16 * 1024 * 1024);
      expect(rssAfter - rssBefore).toBeLessThan(200 * 1024 * 1024);
    },
  );
});
