/**
 * Deliveries to one URL run concurrently up to MAX_IN_FLIGHT_PER_URL, while the webhooks of
 * one transaction keep their order (payment before refund, even across a retry). Real sandbox
 * on a socket, real receiver on loopback that decides per request when (and whether) to answer.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { MAX_IN_FLIGHT_PER_URL } from '../../../../src/core/webhooks/lanes.js';
import { ACK, directPayment, headers, verifySignature } from '../../../support/app.js';

interface Hook {
  body: { ll_transaction_id?: string; original_transaction_id?: string; refund_data?: unknown; payment_data?: unknown };
  headers: IncomingHttpHeaders;
  verified: boolean;
  res: ServerResponse;
}

/** A receiver that hands each request to `onHook`; the test answers it (or not) via `answer`. */
async function heldReceiver(onHook: (hook: Hook, all: Hook[]) => void) {
  const hooks: Hook[] = [];
  let open = 0;
  let maxOpen = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      open += 1;
      maxOpen = Math.max(maxOpen, open);
      res.on('close', () => (open -= 1));
      const hook: Hook = {
        body: JSON.parse(raw) as Hook['body'],
        headers: req.headers,
        verified: verifySignature(raw, req.headers.signature as string),
        res,
      };
      hooks.push(hook);
      onHook(hook, hooks);
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hooks,
    maxOpen: () => maxOpen,
    async until(done: () => boolean): Promise<void> {
      while (!done()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(hook: Hook, status = ACK.status, body = ACK.body): void {
  if (hook.res.destroyed) return;
  hook.res.writeHead(status, { 'content-type': 'application/json' });
  hook.res.end(body);
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function sandboxFor(url: string): Promise<RunningServer> {
  const server = await startServer({ port: 0, ticker: false, notificationUrl: url, deliveryTimeoutMs: 120_000 });
  cleanup.push(() => server.stop());
  return server;
}

async function createTx(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function settle(server: RunningServer, id: string): Promise<void> {
  const res = await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
  expect(res.status).toBe(200);
}

describe('deliveries to one URL run side by side', () => {
  it('a receiver that hangs on one transaction still receives the other transactions’ webhooks meanwhile', async () => {
    let hung: Hook | undefined;
    const receiver = await heldReceiver((hook, all) => {
      if (all.length === 1)
        hung = hook; // never answered until the end of the test
      else answer(hook);
    });
    const server = await sandboxFor(receiver.url);
    cleanup.push(async () => {
      if (hung) answer(hung);
      await receiver.close();
    });
    const first = await createTx(server);
    await settle(server, first);
    await receiver.until(() => receiver.hooks.length === 1);
    const others = [await createTx(server), await createTx(server), await createTx(server)];
    for (const id of others) await settle(server, id);
    await receiver.until(() => receiver.hooks.length === 4);
    expect(
      receiver.hooks
        .slice(1)
        .map((h) => h.body.ll_transaction_id)
        .sort(),
    ).toEqual([...others].sort());
    expect(receiver.hooks.every((h) => h.verified)).toBe(true);
    expect(receiver.hooks[0]!.res.writableEnded).toBe(false); // the first is still hanging
  });

  it(`has at most ${MAX_IN_FLIGHT_PER_URL} deliveries in flight to one URL, and does reach that many`, async () => {
    const total = MAX_IN_FLIGHT_PER_URL * 3;
    let released = false;
    const receiver = await heldReceiver((hook, all) => {
      if (released) return answer(hook);
      // Hold every request until the limit is reached, then answer them all and the rest at once.
      if (all.length === MAX_IN_FLIGHT_PER_URL) {
        released = true;
        for (const h of all) answer(h);
      }
    });
    cleanup.push(() => receiver.close());
    const server = await sandboxFor(receiver.url);
    const ids: string[] = [];
    for (let i = 0; i < total; i++) ids.push(await createTx(server));
    await Promise.all(ids.map((id) => settle(server, id)));
    await receiver.until(() => receiver.hooks.length === total);
    expect(receiver.maxOpen()).toBe(MAX_IN_FLIGHT_PER_URL);
    expect(new Set(receiver.hooks.map((h) => h.body.ll_transaction_id))).toEqual(new Set(ids));
  });

  it('a delivery waiting for a slot is signed meanwhile, and sent with that signature', async () => {
    let held = true;
    const receiver = await heldReceiver((hook) => {
      if (!held) answer(hook);
    });
    cleanup.push(() => receiver.close());
    const server = await sandboxFor(receiver.url);
    const ids: string[] = [];
    for (let i = 0; i < MAX_IN_FLIGHT_PER_URL + 2; i++) ids.push(await createTx(server));
    for (const id of ids) await settle(server, id);
    await receiver.until(() => receiver.hooks.length === MAX_IN_FLIGHT_PER_URL);
    const sent = new Set(receiver.hooks.map((h) => h.body.ll_transaction_id));
    const waiting = ids.filter((id) => !sent.has(id)).map((id) => server.core.queries.deliveries.forResource(id)[0]!);
    expect(waiting).toHaveLength(2);
    const signatureOf = (id: string) => server.core.queries.deliveries.byId(id)!.signature;
    for (let polls = 0; polls < 500 && waiting.some((d) => signatureOf(d.id) === null); polls++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(
      waiting.map((d) => ({ attempts: server.core.queries.deliveries.byId(d.id)!.attempts, signed: signatureOf(d.id) !== null })),
    ).toEqual([
      { attempts: 0, signed: true },
      { attempts: 0, signed: true },
    ]);
    held = false;
    for (const h of receiver.hooks) answer(h);
    await receiver.until(() => receiver.hooks.length === ids.length);
    for (const d of waiting) {
      const hook = receiver.hooks.find((h) => h.body.ll_transaction_id === d.resource_id)!;
      expect(hook.verified).toBe(true);
      expect(hook.headers.signature).toBe(signatureOf(d.id));
    }
  });
});

/**
 * A sandbox whose webhooks go to a held receiver answering with `onHook`: a payment settled,
 * its first webhook arrived, then a refund of `refundBody` created (201).
 */
async function refundedAfterFirstAttempt(onHook: Parameters<typeof heldReceiver>[0], refundBody: Record<string, unknown>) {
  const receiver = await heldReceiver(onHook);
  cleanup.push(() => receiver.close());
  const server = await sandboxFor(receiver.url);
  const id = await createTx(server);
  await settle(server, id);
  await receiver.until(() => receiver.hooks.length === 1);
  const refund = await fetch(`${server.url}/v4/transactions/${id}/refunds`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(refundBody),
  });
  expect(refund.status).toBe(201);
  return { receiver, server };
}

describe('webhooks of one transaction keep their order', () => {
  it('a payment’s webhook arrives before its refund’s even when its first attempt fails and is retried', async () => {
    const { receiver, server } = await refundedAfterFirstAttempt(
      (hook, all) => {
        if (all.length === 1) answer(hook, 503, '{"error":"busy"}');
        else answer(hook);
      },
      { amount: 100 },
    );
    // The payment's retry is due 10 s later on the sandbox clock; the refund waits for it.
    const advanced = await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 11 }),
    });
    expect(advanced.status).toBe(200);
    await receiver.until(() => receiver.hooks.length === 3);
    const kinds = receiver.hooks.map((h) => ('payment_data' in h.body ? 'payment' : 'refund'));
    expect(kinds).toEqual(['payment', 'payment', 'refund']);
    const deliveries = (await (await fetch(`${server.url}/_sandbox/deliveries`)).json()) as {
      items: { kind: string; status: string; attempts_count: number }[];
    };
    expect(deliveries.items.map((d) => [d.kind, d.status, d.attempts_count]).sort()).toEqual([
      ['payment', 'delivered', 2],
      ['refund', 'delivered', 1],
    ]);
  });

  it('a refund held behind its payment’s retry is still delivered once the clock passes the retry', async () => {
    const { receiver, server } = await refundedAfterFirstAttempt(
      (hook, all) => (all.length <= 2 ? answer(hook, 500, '{}') : answer(hook)),
      {},
    );
    // Retries at +10 s (fails again) and +30 s (acknowledged); then the refund goes.
    const advanced = await fetch(`${server.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 3600 }),
    });
    expect(advanced.status).toBe(200);
    await receiver.until(() => receiver.hooks.length === 4);
    expect(receiver.hooks.map((h) => ('payment_data' in h.body ? 'payment' : 'refund'))).toEqual([
      'payment',
      'payment',
      'payment',
      'refund',
    ]);
  });

  it('a refund held behind its payment’s retry goes right after the payment when that is resent by hand', async () => {
    const { receiver, server } = await refundedAfterFirstAttempt(
      (hook, all) => (all.length === 1 ? answer(hook, 500, '{}') : answer(hook)),
      { amount: 100 },
    );
    const list = (await (await fetch(`${server.url}/_sandbox/deliveries`)).json()) as { items: { id: string; kind: string }[] };
    const payment = list.items.find((d) => d.kind === 'payment')!;
    const resent = await fetch(`${server.url}/_sandbox/deliveries/${payment.id}/resend`, { method: 'POST' });
    expect(resent.status).toBe(202);
    // No clock advance: the resent payment goes now, and the refund right after it.
    await receiver.until(() => receiver.hooks.length === 3);
    expect(receiver.hooks.map((h) => ('payment_data' in h.body ? 'payment' : 'refund'))).toEqual(['payment', 'payment', 'refund']);
  });
});
