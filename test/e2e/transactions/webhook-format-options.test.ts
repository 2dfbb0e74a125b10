/**
 * `--webhook-format event` and `--settlement-currency`, over real sockets: the sandbox sends
 * webhooks to a merchant's handler written as the spec overview's sample (it switches on
 * `event.type`, reads `event.data.transaction`, and verifies the HMAC-SHA256 hex digest of
 * the raw body with the shared secret, compared in constant time). The verifier below is the
 * overview's, copied as is; nothing of the sandbox's signing code is used to check it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OptionsError, resolveOptions } from '../../../src/core/config.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT, directPayment, headers, startReceiver, type Receiver } from '../../support/app.js';

const SECRET = 'whsec_sandbox_overview';

// --- the overview's verifier, copied ---
function verifyWebhook(payload: Buffer | string, signature: string, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(payload).digest('hex');
  return expected.length === signature.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

interface HandledEvent {
  type: string;
  transaction: Record<string, unknown>;
  event: Record<string, unknown>;
}

/** The overview's handler on node:http: verify the raw body, switch on event.type, acknowledge. */
async function overviewHandler(): Promise<{
  url: string;
  handled: HandledEvent[];
  rejected: number;
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}> {
  const handled: HandledEvent[] = [];
  const state = { rejected: 0 };
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers.signature;
      if (typeof signature !== 'string' || !verifyWebhook(raw, signature, SECRET)) {
        state.rejected += 1;
        res.writeHead(401).end();
        return;
      }
      const event = JSON.parse(raw.toString('utf8')) as { type: string; data: { transaction: Record<string, unknown> } };
      switch (event.type) {
        case 'transaction.completed':
        case 'transaction.failed':
        case 'refund.completed':
          handled.push({ type: event.type, transaction: event.data.transaction, event: event as unknown as Record<string, unknown> });
          break;
        default:
          break;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: '200', message: 'SUCCESS' }));
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    handled,
    get rejected() {
      return state.rejected;
    },
    async waitFor(n) {
      const deadline = Date.now() + 10_000;
      while (handled.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} events, got ${handled.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let server: RunningServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await server?.stop();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

const post = async (path: string, payload: unknown): Promise<Record<string, unknown>> => {
  const res = await fetch(`${server!.url}${path}`, { method: 'POST', headers: headers(DIRECT), body: JSON.stringify(payload) });
  expect(res.status, path).toBe(201);
  return (await res.json()) as Record<string, unknown>;
};
const card = (number: string) => ({ type: 'card', number, expiration_date: '12/30', security_code: '123' });

describe('--webhook-format event', () => {
  it("sends the overview's events, verified by the overview's HMAC verifier", async () => {
    const handler = await overviewHandler();
    try {
      server = await startServer({
        port: 0,
        ticker: false,
        webhookFormat: 'event',
        webhookSigning: 'hmac',
        webhookSecret: SECRET,
        notificationUrl: handler.url,
      });
      const paid = await post(
        '/v4/transactions',
        directPayment({ external_identifier: 'order-ev-1', payment_method: card('4242424242424242') }),
      );
      await handler.waitFor(1);
      const declined = await post(
        '/v4/transactions',
        directPayment({ external_identifier: 'order-ev-2', payment_method: card('4000000000000002') }),
      );
      await handler.waitFor(2);
      const refund = await post(`/v4/transactions/${String(paid.id)}/refunds`, {
        amount: 300,
        reason: 'damaged',
        external_identifier: 'refund-ev-1',
      });
      await handler.waitFor(3);

      expect(handler.rejected).toBe(0);
      expect(handler.handled.map((h) => h.type)).toEqual(['transaction.completed', 'transaction.failed', 'refund.completed']);
      const [completed, failed, refunded] = handler.handled as [HandledEvent, HandledEvent, HandledEvent];
      expect(Object.keys(completed.event)).toEqual(['id', 'type', 'created_at', 'data']);
      expect(completed.event.id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
      expect(completed.event.created_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/));
      expect(completed.transaction).toMatchObject({
        type: 'transaction',
        id: paid.id,
        status: 'SUCCEEDED',
        amount: 1050,
        currency: 'USD',
        external_identifier: 'order-ev-1',
        exchange_rate: '1.000000',
        settlement_amount: 1050,
        settlement_currency_code: 'USD',
      });
      expect(failed.transaction).toMatchObject({ id: declined.id, status: 'FAILED', external_identifier: 'order-ev-2' });
      expect(refunded.transaction).toMatchObject({ id: paid.id, status: 'SUCCEEDED', refunded_amount: 300 });
      expect((refunded.event.data as Record<string, unknown>).refund).toMatchObject({
        type: 'refund',
        id: refund.id,
        amount: 300,
        currency: 'USD',
        reason: 'damaged',
        status: 'SUCCESS',
      });
      // Every event has its own id; the spec's fields are absent.
      expect(new Set(handler.handled.map((h) => h.event.id)).size).toBe(3);
      expect(JSON.stringify(handler.handled)).not.toContain('payment_data');
    } finally {
      await handler.close();
    }
  });

  it("a wrong secret fails the overview's verifier (the merchant answers 401, the sandbox retries)", async () => {
    const handler = await overviewHandler();
    try {
      server = await startServer({
        port: 0,
        ticker: false,
        webhookFormat: 'event',
        webhookSigning: 'hmac',
        webhookSecret: 'another-secret',
        notificationUrl: handler.url,
      });
      await post('/v4/transactions', directPayment({ payment_method: card('4242424242424242') }));
      const deadline = Date.now() + 10_000;
      while (handler.rejected === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(handler.rejected).toBe(1);
      expect(handler.handled).toEqual([]);
    } finally {
      await handler.close();
    }
  });

  it("the default (spec) keeps the spec's bodies", async () => {
    receiver = await startReceiver();
    server = await startServer({ port: 0, ticker: false, notificationUrl: receiver.url });
    await post('/v4/transactions', directPayment({ payment_method: card('4242424242424242') }));
    const [hook] = await receiver.waitFor(1);
    expect(Object.keys(hook!.body as object)).toEqual(['ll_transaction_id', 'merchant_transaction_id', 'payment_data']);
    expect(hook!.verified).toBe(true);
  });
});

describe('--settlement-currency', () => {
  it('settles a USD payment in THB at the fixed rate, in the payment and refund webhooks', async () => {
    receiver = await startReceiver();
    server = await startServer({ port: 0, ticker: false, settlementCurrency: 'THB', notificationUrl: receiver.url });
    const paid = await post('/v4/transactions', directPayment({ amount: 1050, currency: 'USD', payment_method: card('4242424242424242') }));
    await receiver.waitFor(1);
    await post(`/v4/transactions/${String(paid.id)}/refunds`, { amount: 300 });
    const [payment, refund] = await receiver.waitFor(2);
    expect(payment!.verified).toBe(true);
    expect((payment!.body as { payment_data: unknown }).payment_data).toMatchObject({
      exchange_rate: '36.000000',
      payment_amount: '10.50',
      payment_currency_code: 'USD',
      settlement_amount: '378.00',
      settlement_currency_code: 'THB',
    });
    expect((refund!.body as { refund_data: unknown }).refund_data).toMatchObject({
      refund_amount: 300,
      refund_currency_code: 'USD',
      settlement_currency_code: 'THB',
    });
  });

  it('carries the settlement figures in the event format too', async () => {
    const handler = await overviewHandler();
    try {
      server = await startServer({
        port: 0,
        ticker: false,
        settlementCurrency: 'THB',
        webhookFormat: 'event',
        webhookSigning: 'hmac',
        webhookSecret: SECRET,
        notificationUrl: handler.url,
      });
      await post('/v4/transactions', directPayment({ amount: 1050, currency: 'USD', payment_method: card('4242424242424242') }));
      await handler.waitFor(1);
      expect(handler.handled[0]!.transaction).toMatchObject({
        amount: 1050,
        currency: 'USD',
        exchange_rate: '36.000000',
        settlement_amount: 37800,
        settlement_currency_code: 'THB',
      });
    } finally {
      await handler.close();
    }
  });
});

describe('the two options', () => {
  it('default to the spec bodies and no settlement currency; bad values name the flag', () => {
    expect(resolveOptions({}).webhookFormat).toBe('spec');
    expect(resolveOptions({}).settlementCurrency).toBeUndefined();
    expect(resolveOptions({ webhookFormat: 'event', settlementCurrency: 'THB' })).toMatchObject({
      webhookFormat: 'event',
      settlementCurrency: 'THB',
    });
    expect(() => resolveOptions({ webhookFormat: 'json' })).toThrow(OptionsError);
    expect(() => resolveOptions({ webhookFormat: 'json' })).toThrow(/--webhook-format "json": must be spec or event/);
    expect(() => resolveOptions({ settlementCurrency: 'XYZ' })).toThrow(
      /--settlement-currency "XYZ": must be a currency with a sandbox rate: BRL, CNY/,
    );
    expect(() => resolveOptions({ settlementCurrency: 'BHD' })).toThrow(OptionsError);
  });
});
