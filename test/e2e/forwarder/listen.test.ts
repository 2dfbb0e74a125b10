/**
 * `payment-sandbox listen --forward-to` and `forwardWebhooks` over real sockets: a payment's
 * notification URL points at a port nothing listens on, so the sandbox cannot reach the
 * merchant; the listener takes each attempt and POSTs it to the real receiver, and the sandbox
 * records the answer as that attempt's (delivered, retried and ordered as a direct delivery,
 * heard by the go-live report). Once the listener stops, delivery is direct again.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forwardWebhooks } from '../../../src/index.js';
import type { RunningServer } from '../../../src/server.js';
import { ACK, DIRECT, directPayment, headers, verifySignature } from '../../support/app.js';
import { freePort } from '../../support/ports.js';
import { startRelay } from '../../support/relay.js';
import { perTest } from '../../support/servers.js';
import { until } from '../../support/until.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const the = perTest();

type Json = Record<string, unknown>;
interface Attempt {
  number: number;
  response_status: number | null;
  ok: boolean;
  error: string | null;
}
interface DeliveryJson {
  id: string;
  resource_id: string;
  kind: string;
  status: string;
  body: string;
  attempts: Attempt[];
}

const control = async (server: RunningServer, method: string, path: string, payload?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${server.url}/_sandbox${path}`, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
};

/** A pending payment whose notification URL is a loopback port nothing listens on. */
async function unreachablePayment(server: RunningServer): Promise<{ id: string; url: string }> {
  const url = `http://127.0.0.1:${await freePort()}/webhooks`;
  const res = await fetch(`${server.url}/v4/transactions`, {
    method: 'POST',
    headers: headers(DIRECT),
    body: JSON.stringify(directPayment({ notification_url: url })),
  });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { id: string }).id, url };
}

const deliveriesOf = async (server: RunningServer, resourceId: string): Promise<DeliveryJson[]> =>
  ((await control(server, 'GET', '/deliveries')).body.items as DeliveryJson[]).filter((d) => d.resource_id === resourceId);

/** The delivery of `resourceId` once it has `attempts` attempts recorded. */
const deliveryAfter = (server: RunningServer, resourceId: string, attempts: number): Promise<DeliveryJson> =>
  until(`delivery of ${resourceId} with ${attempts} attempt(s)`, async () =>
    (await deliveriesOf(server, resourceId)).find((d) => d.attempts.length >= attempts),
  );

/** The built CLI's `listen` at `sandboxUrl`, forwarding to `forwardTo`: what it printed so far, and its exit. */
function cli(sandboxUrl: string, forwardTo: string) {
  const child = spawn(process.execPath, [BIN, 'listen', '--forward-to', forwardTo], {
    env: { PATH: process.env.PATH, PAYMENT_SANDBOX_URL: sandboxUrl },
  });
  const printed = { out: '', err: '' };
  child.stdout.on('data', (c: Buffer) => (printed.out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (printed.err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  the.defer(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, printed, exited };
}

describe('payment-sandbox listen --forward-to', () => {
  it('the built CLI forwards a webhook the sandbox cannot reach; the attempt is recorded as delivered and printed', async () => {
    const server = await the.serve();
    const receiver = await the.receive();
    const listen = cli(server.url, receiver.url);
    await until('the listener to connect', () => (listen.printed.out.includes('listening to') ? true : undefined), 15_000).catch(
      (e: Error) => {
        throw new Error(`${e.message}; stderr: ${listen.printed.err}`);
      },
    );

    const tx = await unreachablePayment(server);
    expect((await control(server, 'POST', `/transactions/${tx.id}/settle`)).status).toBe(200);

    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
    expect(hook!.headers.timezone).toBe('UTC');
    const delivery = await deliveryAfter(server, tx.id, 1);
    expect(delivery.status).toBe('delivered');
    expect(hook!.raw).toBe(delivery.body); // the same bytes
    expect(delivery.attempts[0]).toMatchObject({ number: 1, ok: true, response_status: 200, error: null });
    await until('the printed line', () => (listen.printed.out.includes(tx.id) ? true : undefined), 10_000);
    expect(listen.printed.out).toMatch(new RegExp(`payment/SUCCEEDED\\s+${tx.id}\\s+-> 200\\s+\\d+ ms`));

    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
  });

  it('the built CLI connects again when the sandbox restarts, and exits 1 when the sandbox that comes back refuses it', async () => {
    const first = await the.serve();
    const relay = await startRelay(first.port); // one address, as a container's published port
    the.defer(() => relay.close());
    const receiver = await the.receive();
    const listen = cli(relay.url, receiver.url);
    await until('the listener to connect', () => (listen.printed.out.includes('listening to') ? true : undefined), 15_000);

    await first.stop();
    await until(
      'the listener to say it lost the sandbox',
      () => (listen.printed.err.includes('connecting again once it is back') ? true : undefined),
      15_000,
    );
    expect(listen.child.exitCode).toBeNull();

    const second = await the.serve();
    relay.to(second.port);
    await until(
      'the listener to connect again',
      () => (listen.printed.out.includes(`listening again to ${relay.url}`) ? true : undefined),
      15_000,
    );
    const tx = await unreachablePayment(second);
    expect((await control(second, 'POST', `/transactions/${tx.id}/settle`)).status).toBe(200);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
    expect((await deliveryAfter(second, tx.id, 1)).status).toBe('delivered');

    // Back with an admin token the listener does not have: refused, so it stops trying.
    await second.stop();
    relay.to((await the.serve({ adminToken: 'a-token-the-listener-lacks' })).port);
    expect(await listen.exited).toBe(1);
    expect(listen.printed.err).toMatch(/refused the listener \(401\)/);
  });

  it('a handler answering 500 then 200 is retried on the sandbox clock as a direct delivery is; the report hears the retry', async () => {
    const server = await the.serve();
    const receiver = await the.receive();
    receiver.respond = (n) => (n === 1 ? { status: 500, body: 'boom' } : ACK);
    const forwarder = await forwardWebhooks({ sandboxUrl: server.url, forwardTo: receiver.url });
    the.defer(() => forwarder.stop());

    const tx = await unreachablePayment(server);
    await control(server, 'POST', `/transactions/${tx.id}/settle`);
    const failed = await deliveryAfter(server, tx.id, 1);
    expect(failed.status).toBe('pending');
    expect(failed.attempts[0]).toMatchObject({ number: 1, ok: false, response_status: 500, error: 'merchant answered HTTP 500' });

    // A refund queued meanwhile waits behind the payment's retry, as for a direct delivery.
    await control(server, 'POST', `/transactions/${tx.id}/refund`, {});
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(1);

    await control(server, 'POST', '/clock/advance', { seconds: 10 });
    await receiver.waitFor(3);
    const kinds = receiver.received.map((h) => Object.keys(h.body as Json).includes('refund_data'));
    expect(kinds).toEqual([false, false, true]); // the payment twice, then the refund
    const delivered = await deliveryAfter(server, tx.id, 2);
    expect(delivered.status).toBe('delivered');
    expect(delivered.attempts.map((a) => a.response_status)).toEqual([500, 200]);

    const report = (await control(server, 'GET', `/report?account_id=${DIRECT.account_id}`)).body as {
      coverage: { scenario: string; seen: boolean }[];
    };
    expect(report.coverage.find((c) => c.scenario === 'webhook_retry')?.seen).toBe(true);
  });

  it('once the listener stops, deliveries go directly to their notification URL again', async () => {
    const server = await the.serve();
    const direct = await the.receive();
    const forwarded = await the.receive();
    const forwarder = await forwardWebhooks({ sandboxUrl: server.url, forwardTo: forwarded.url });

    const pay = async (): Promise<string> => {
      const res = await fetch(`${server.url}/v4/transactions`, {
        method: 'POST',
        headers: headers(DIRECT),
        body: JSON.stringify(directPayment({ notification_url: direct.url })),
      });
      const id = ((await res.json()) as { id: string }).id;
      await control(server, 'POST', `/transactions/${id}/settle`);
      return id;
    };
    const first = await pay();
    await forwarded.waitFor(1);
    expect((await deliveryAfter(server, first, 1)).status).toBe('delivered');
    expect(direct.received).toHaveLength(0); // taken by the listener, not posted by the sandbox

    await forwarder.stop();
    const second = await pay();
    const [hook] = await direct.waitFor(1);
    expect(verifySignature(hook!.raw, hook!.headers.signature as string)).toBe(true);
    expect((await deliveryAfter(server, second, 1)).status).toBe('delivered');
    expect(forwarded.received).toHaveLength(1);
  });

  it('a listener that connects takes at once a webhook that had no URL to go to; one with a URL keeps its retry time', async () => {
    const server = await the.serve();
    const receiver = await the.receive();
    const pay = async (body: Record<string, unknown>): Promise<string> => {
      const res = await fetch(`${server.url}/v4/transactions`, { method: 'POST', headers: headers(DIRECT), body: JSON.stringify(body) });
      const id = ((await res.json()) as { id: string }).id;
      expect((await control(server, 'POST', `/transactions/${id}/settle`)).status).toBe(200);
      return id;
    };
    const nowhere = await pay(directPayment()); // no notification URL, and the sandbox has none
    const unreachable = (await unreachablePayment(server)).id;
    await control(server, 'POST', `/transactions/${unreachable}/settle`);
    const firstTry = await deliveryAfter(server, nowhere, 1);
    expect(firstTry.attempts[0]!.error).toMatch(/no notification URL/);
    await deliveryAfter(server, unreachable, 1);

    const forwarder = await forwardWebhooks({ sandboxUrl: server.url, forwardTo: receiver.url });
    the.defer(() => forwarder.stop());
    const [hook] = await receiver.waitFor(1);
    expect(JSON.stringify(hook!.body)).toContain(nowhere);
    const carried = await deliveryAfter(server, nowhere, 2);
    expect(carried.status).toBe('delivered');
    expect(carried.attempts[1]).toMatchObject({ number: 2, ok: true, response_status: 200 });

    await new Promise((r) => setTimeout(r, 300));
    expect((await deliveriesOf(server, unreachable))[0]!.attempts).toHaveLength(1); // its retry is not due yet
    expect(receiver.received).toHaveLength(1);
  });

  it("a sandbox that stops ends its listeners' streams, rather than cutting them", async () => {
    const server = await the.serve();
    const forwarder = await forwardWebhooks({ sandboxUrl: server.url, forwardTo: 'http://127.0.0.1:9/x' });
    the.defer(() => forwarder.stop());
    await server.stop();
    await expect(forwarder.closed).rejects.toThrow(`the sandbox at ${server.url} closed the listener's stream`);
  });

  it('an account the sandbox does not know is refused', async () => {
    const server = await the.serve();
    await expect(
      forwardWebhooks({ sandboxUrl: server.url, forwardTo: 'http://127.0.0.1:9/x', accountId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toThrow(/refused the listener \(404\)/);
  });
});
