/**
 * Sample merchant webhook handlers on loopback, for the check-webhooks tests: a good one
 * (verifies the signature with node's crypto and the published PEM or the HMAC secret,
 * is idempotent per delivery, keeps a refund that arrives before its payment), the same
 * one verifying re-serialized JSON instead of the raw body (`reserialize`), a bad one
 * (accepts anything, answers 500 to a delivery it has seen), and a slow one.
 */
import { createHmac, timingSafeEqual, verify as cryptoVerify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../src/core/credentials/demo-credentials.js';

const ACK = JSON.stringify({ code: '200', message: 'SUCCESS' });

export interface SampleHandler {
  url: string;
  /** Effects applied: one per distinct event (payment status or refund) accepted. */
  effects: string[];
  /** Number of requests received. */
  requests: number;
  close(): Promise<void>;
}

type Handle = (raw: string, req: IncomingMessage, res: ServerResponse) => void;

async function listen(handle: Handle): Promise<SampleHandler & { server: ReturnType<typeof createServer> }> {
  const state = { requests: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests += 1;
      handle(Buffer.concat(chunks).toString('utf8'), req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/webhooks`,
    effects: [],
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

/** The good handler. `secret` switches it to HMAC verification; `reserialize` breaks it (below). */
export async function goodHandler(opts: { secret?: string; reserialize?: boolean } = {}): Promise<SampleHandler> {
  const seen = new Set<string>();
  const h = await listen((received, req, res) => {
    // The classic mistake: verifying the body parsed and serialized again, not the bytes received.
    const raw = opts.reserialize ? JSON.stringify(JSON.parse(received)) : received;
    const signature = req.headers.signature;
    if (typeof signature !== 'string' || signature === '') return answer(res, 401, '{"code":"401","message":"missing signature"}');
    const valid =
      opts.secret !== undefined
        ? (() => {
            const expected = Buffer.from(createHmac('sha256', opts.secret!).update(raw, 'utf8').digest('hex'));
            const given = Buffer.from(signature);
            return given.length === expected.length && timingSafeEqual(given, expected);
          })()
        : cryptoVerify('RSA-SHA256', Buffer.from(raw, 'utf8'), DEMO_WEBHOOK_PUBLIC_KEY_PEM, Buffer.from(signature, 'base64'));
    if (!valid) return answer(res, 401, '{"code":"401","message":"bad signature"}');
    let body: { ll_transaction_id?: string; payment_data?: { payment_status?: string }; refund_data?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return answer(res, 400, '{"code":"400","message":"not JSON"}');
    }
    const event = body.refund_data
      ? `refund:${body.ll_transaction_id}`
      : `payment:${body.ll_transaction_id}:${body.payment_data?.payment_status}`;
    // Idempotent: an event seen before is acknowledged again without a second effect; a
    // refund whose payment is unknown is kept all the same (it is settled data).
    if (!seen.has(event)) {
      seen.add(event);
      h.effects.push(event);
    }
    answer(res, 200, ACK);
  });
  return h;
}

/** The bad handler: never checks a signature, and answers 500 to a delivery it has seen. */
export async function badHandler(): Promise<SampleHandler> {
  const seen = new Set<string>();
  const h = await listen((raw, _req, res) => {
    let id = raw;
    try {
      id = String((JSON.parse(raw) as { ll_transaction_id?: string }).ll_transaction_id);
    } catch {
      // accepts anything
    }
    if (seen.has(id)) return answer(res, 500, '{"error":"duplicate key value violates unique constraint"}');
    seen.add(id);
    h.effects.push(id);
    answer(res, 200, ACK);
  });
  return h;
}

/** A handler that verifies nothing and answers after `delayMs`. */
export async function slowHandler(delayMs: number): Promise<SampleHandler> {
  return listen((_raw, _req, res) => {
    const timer = setTimeout(() => answer(res, 200, ACK), delayMs);
    res.on('close', () => clearTimeout(timer));
  });
}
