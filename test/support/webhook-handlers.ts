/**
 * Sample merchant webhook handlers on loopback, for the check-webhooks tests: a good one
 * (verifies the signature with node's crypto and the published PEM or the HMAC secret,
 * is idempotent per delivery, keeps a refund that arrives before its payment), the same
 * one verifying re-serialized JSON instead of the raw body (`reserialize`), a bad one
 * (accepts anything, answers 500 to a delivery it has seen), and a slow one. The good one keeps
 * its orders and answers `GET /orders/<merchant_transaction_id>` as a merchant's test build does
 * for `--state-url`; a `flaw` makes it answer right but keep the wrong state. A shop handler
 * (`shopHandler`) is the good one for a shop that knows its own orders: it answers 404 for an
 * order it never created, and acknowledges and ignores webhooks about one.
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

/** A way a handler answers right yet keeps the wrong state. */
export type StateFlaw = 'applies_forged' | 'counts_refund_twice' | 'processing_is_paid' | 'one_event_per_transaction';

/** A handler of a shop that keeps only orders it created (`createOrder`). */
export interface ShopHandler extends SampleHandler {
  /** Creates a pending order, as the shop's checkout does. */
  createOrder(id: string): void;
}

interface Order {
  payment_status: string | null;
  refunded_amount: number;
}

/**
 * The good handler. `secret` switches it to HMAC verification; `reserialize` breaks it (below);
 * `flaw` keeps a wrong state: applying a delivery before checking its signature, counting each
 * refund delivery (a repeat too), taking any status but FAILED as paid, or remembering a
 * transaction as handled by its ll_transaction_id alone (so its second status is dropped).
 * `knownOrdersOnly` keeps only orders created with `createOrder` (see `shopHandler`).
 */
export async function goodHandler(
  opts: { secret?: string; reserialize?: boolean; flaw?: StateFlaw; knownOrdersOnly?: boolean } = {},
): Promise<ShopHandler> {
  const seen = new Set<string>();
  const orders = new Map<string, Order>();
  const ignored: Order = { payment_status: null, refunded_amount: 0 }; // an order the shop never created: nothing kept
  const order = (id: string): Order => {
    if (opts.knownOrdersOnly && !orders.has(id)) return { ...ignored };
    if (!orders.has(id)) orders.set(id, { payment_status: null, refunded_amount: 0 });
    return orders.get(id)!;
  };
  type Body = {
    ll_transaction_id?: string;
    merchant_transaction_id?: string;
    original_transaction_id?: string;
    payment_data?: { payment_status?: string };
    refund_data?: { refund_amount?: number };
  };
  const apply = (body: Body): void => {
    if (body.refund_data) {
      order(String(body.original_transaction_id)).refunded_amount += body.refund_data.refund_amount ?? 0;
      return;
    }
    const status = body.payment_data?.payment_status;
    const o = order(String(body.merchant_transaction_id));
    if (opts.flaw === 'processing_is_paid') o.payment_status = status === 'FAILED' ? 'FAILED' : 'SUCCEEDED';
    else if (status === 'SUCCEEDED' || status === 'FAILED') o.payment_status = status;
  };
  const h = await listen((received, req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/orders/')) {
      const id = decodeURIComponent(req.url.slice('/orders/'.length));
      if (opts.knownOrdersOnly && !orders.has(id)) return answer(res, 404, '{"code":"404","message":"no such order"}');
      return answer(res, 200, JSON.stringify(orders.get(id) ?? { payment_status: null }));
    }
    if (opts.flaw === 'applies_forged') {
      try {
        apply(JSON.parse(received) as Body);
      } catch {}
    }
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
    let body: Body;
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return answer(res, 400, '{"code":"400","message":"not JSON"}');
    }
    const event = body.refund_data
      ? `refund:${body.ll_transaction_id}`
      : opts.flaw === 'one_event_per_transaction'
        ? `payment:${body.ll_transaction_id}`
        : `payment:${body.ll_transaction_id}:${body.payment_data?.payment_status}`;
    // Idempotent: an event seen before is acknowledged again without a second effect; a
    // refund whose payment is unknown is kept all the same (it is settled data).
    if (!seen.has(event)) {
      seen.add(event);
      h.effects.push(event);
      if (opts.flaw !== 'applies_forged') apply(body);
    } else if (opts.flaw === 'counts_refund_twice' && body.refund_data) apply(body);
    answer(res, 200, ACK);
  });
  return {
    ...h,
    get requests() {
      return h.requests;
    },
    createOrder: (id: string) => void orders.set(id, { payment_status: null, refunded_amount: 0 }),
  };
}

/** The good handler of a shop that keeps only the orders it created: 404 for others, their webhooks acknowledged and ignored. */
export function shopHandler(opts: { secret?: string } = {}): Promise<ShopHandler> {
  return goodHandler({ ...opts, knownOrdersOnly: true });
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

/**
 * A handler that verifies signatures but refuses what it does not know: fields the spec does not
 * list, statuses it does not list, and bodies over 64 KiB (a framework default).
 */
export async function strictHandler(): Promise<SampleHandler> {
  const known = new Set(['ll_transaction_id', 'merchant_transaction_id', 'original_transaction_id', 'payment_data', 'refund_data']);
  return listen((raw, req, res) => {
    const signature = String(req.headers.signature ?? '');
    if (!cryptoVerify('RSA-SHA256', Buffer.from(raw, 'utf8'), DEMO_WEBHOOK_PUBLIC_KEY_PEM, Buffer.from(signature, 'base64')))
      return answer(res, 401, '{"code":"401","message":"bad signature"}');
    if (Buffer.byteLength(raw) > 64 * 1024) return answer(res, 413, '{"code":"413","message":"too large"}');
    const body = JSON.parse(raw) as Record<string, unknown> & { payment_data?: Record<string, unknown> };
    if (Object.keys(body).some((k) => !known.has(k))) return answer(res, 400, '{"code":"400","message":"unknown field"}');
    const status = body.payment_data?.payment_status;
    if (status !== undefined && status !== 'SUCCEEDED' && status !== 'FAILED')
      return answer(res, 400, '{"code":"400","message":"unknown status"}');
    answer(res, 200, ACK);
  });
}
