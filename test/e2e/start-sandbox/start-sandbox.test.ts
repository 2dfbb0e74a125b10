/**
 * The in-process API (`startSandbox`, `verifyWebhook`) over real loopback sockets: a merchant
 * receiver verifies deliveries with `verifyWebhook`, the handle steers the sandbox through
 * the control API, and the package's own name resolves through the `exports` map to dist/.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, verifyWebhook, type RunningSandbox, SandboxRequestError } from '../../../src/index.js';
import { directPayment } from '../../support/app.js';

interface Hook {
  raw: string;
  headers: IncomingHttpHeaders;
}

async function receiver(): Promise<{ url: string; hooks: Hook[]; close(): Promise<void> }> {
  const hooks: Hook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hooks.push({ raw: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    hooks,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  cleanup.push(() => sandbox.stop());
  return sandbox;
}

async function create(
  sandbox: RunningSandbox,
  account: 'direct' | 'checkout',
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; status: string; payment_url: string | null }> {
  const res = await fetch(`${sandbox.apiUrl}/transactions`, {
    method: 'POST',
    headers: { ...sandbox.credentials[account].headers, 'content-type': 'application/json' },
    body: JSON.stringify(directPayment(overrides)),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; status: string; payment_url: string | null };
}

describe('startSandbox', () => {
  it('starts on a free loopback port with the demo credentials, and stops', async () => {
    const a = await start();
    const b = await start();
    expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(a.url).not.toBe(b.url);
    expect(a.apiUrl).toBe(`${a.url}/v4`);
    expect(a.credentials.direct.mode).toBe('direct');
    expect(a.credentials.checkout.mode).toBe('checkout');
    expect(a.credentials.webhookPublicKeyPem).toContain('BEGIN PUBLIC KEY');
    expect((await fetch(`${a.url}/_sandbox/health`)).status).toBe(200);
    await a.stop();
    await expect(fetch(`${a.url}/_sandbox/health`)).rejects.toThrow();
  });

  it('settle, refund, deliveries and waitForDelivery: each webhook verifies with verifyWebhook', async () => {
    const merchant = await receiver();
    cleanup.push(() => merchant.close());
    const sandbox = await start({ notificationUrl: merchant.url });
    const tx = await create(sandbox, 'direct', { amount: 2000 });

    const settled = await sandbox.settle(tx.id);
    expect(settled.status).toBe('SUCCEEDED');
    const payment = await sandbox.waitForDelivery((d) => d.resource_id === tx.id && d.kind === 'payment' && d.status === 'delivered');
    expect(JSON.parse(payment.body)).toMatchObject({ ll_transaction_id: tx.id, payment_data: { payment_status: 'SUCCEEDED' } });

    const refund = await sandbox.refund(tx.id, 500);
    expect(refund).toMatchObject({ type: 'refund', transaction_id: tx.id, amount: 500 });
    await sandbox.waitForDelivery((d) => d.kind === 'refund' && d.status === 'delivered');

    expect(merchant.hooks).toHaveLength(2);
    for (const hook of merchant.hooks) {
      expect(verifyWebhook({ body: hook.raw, headers: hook.headers, publicKey: sandbox.credentials.webhookPublicKeyPem })).toBe(true);
      // One changed byte, or no signature header, is rejected.
      expect(
        verifyWebhook({ body: hook.raw.replace('}', ' }'), headers: hook.headers, publicKey: sandbox.credentials.webhookPublicKeyPem }),
      ).toBe(false);
      expect(verifyWebhook({ body: hook.raw, headers: {}, publicKey: sandbox.credentials.webhookPublicKeyPem })).toBe(false);
    }
    expect((await sandbox.deliveries()).map((d) => d.kind).sort()).toEqual(['payment', 'refund']);

    await sandbox.reset();
    expect(await sandbox.deliveries()).toEqual([]);
  });

  it('fail, advanceClock, and control errors as SandboxRequestError with the error envelope', async () => {
    const sandbox = await start();
    const tx = await create(sandbox, 'direct');
    expect((await sandbox.fail(tx.id)).status).toBe('FAILED');
    const advanced = await sandbox.advanceClock(3600);
    expect(advanced.offset_seconds).toBeCloseTo(3600, 0);
    await sandbox.reset({ rewindClock: true });
    const health = (await (await fetch(`${sandbox.url}/_sandbox/clock`)).json()) as { offset_seconds: number };
    expect(health.offset_seconds).toBe(0);
    const err = await sandbox.settle('no-such-transaction').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxRequestError);
    expect((err as SandboxRequestError).status).toBe(404);
    expect((err as SandboxRequestError).body).toMatchObject({ type: 'error', status: 404 });
  });

  it('waitForDelivery rejects when nothing matches in time', async () => {
    const sandbox = await start();
    await expect(sandbox.waitForDelivery(() => true, 200)).rejects.toThrow(/no matching webhook delivery/);
  });

  it('takes the CLI options: bad values throw one line naming the flag', async () => {
    await expect(startSandbox({ webhookSigning: 'hmac' })).rejects.toThrow(/--webhook-secret/);
    await expect(startSandbox({ port: 70000 })).rejects.toThrow(/--port/);
  });

  it('hmac signing: verifyWebhook with the secret', async () => {
    const merchant = await receiver();
    cleanup.push(() => merchant.close());
    const sandbox = await start({ notificationUrl: merchant.url, webhookSigning: 'hmac', webhookSecret: 's3cret' });
    const tx = await create(sandbox, 'direct');
    await sandbox.settle(tx.id);
    await sandbox.waitForDelivery((d) => d.status === 'delivered');
    const [hook] = merchant.hooks;
    expect(verifyWebhook({ body: hook!.raw, headers: hook!.headers, secret: 's3cret' })).toBe(true);
    expect(verifyWebhook({ body: hook!.raw, headers: hook!.headers, secret: 'other' })).toBe(false);
    expect(verifyWebhook({ body: hook!.raw, signature: 'zz', secret: 's3cret' })).toBe(false);
    const fetchHeaders = new Headers({ signature: createHmac('sha256', 'k').update('{}').digest('hex') });
    expect(verifyWebhook({ body: '{}', headers: fetchHeaders, secret: 'k' })).toBe(true);
  });

  it('payment links use publicUrl rather than the bind address', async () => {
    const sandbox = await start({ host: '0.0.0.0', publicUrl: 'http://sandbox.test:8080/' });
    const res = await fetch(`${sandbox.url.replace('0.0.0.0', '127.0.0.1')}/v4/transactions`, {
      method: 'POST',
      headers: { ...sandbox.credentials.checkout.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 4990, currency: 'EUR', description: 'Plan', return_url: 'http://shop.test/return' }),
    });
    const tx = (await res.json()) as { id: string; payment_url: string };
    expect(res.status).toBe(201);
    expect(tx.payment_url).toBe(`http://sandbox.test:8080/pay/${tx.id}`);
  });
});

describe('the package entry points', () => {
  it("'payment-sandbox' and 'payment-sandbox/webhooks' resolve through the exports map to the built files", async () => {
    // Specifiers in variables: resolved at run time by node (dist/ is built by `pretest`), not by tsc.
    const names = ['payment-sandbox', 'payment-sandbox/webhooks'];
    const main = (await import(names[0]!)) as Record<string, unknown>;
    const webhooks = (await import(names[1]!)) as Record<string, unknown>;
    expect(typeof main.startSandbox).toBe('function');
    expect(typeof main.verifyWebhook).toBe('function');
    expect(typeof main.checkWebhooks).toBe('function');
    expect(typeof webhooks.verifyWebhook).toBe('function');
  });
});
