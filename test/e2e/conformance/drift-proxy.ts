/**
 * A deliberately drifting server for the conformance kit's tests: a node:http proxy in front of
 * a real sandbox that rewrites some of its answers, one kind of drift each.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

export type Drift =
  | 'dropped_field'
  | 'changed_type'
  | 'error_code'
  | 'status'
  | 'repeated_record'
  | 'checkout_no_payment_url'
  | 'forbidden_as_unauthorized'
  /** Transaction list items without `description` (no check asserts it: only a comparison sees it). */
  | 'list_item_dropped_field'
  /** A replayed keyed create answered with the record as it is now (a fresh GET), not the stored first answer. */
  | 'replay_current_record'
  /** `GET /v4/buyers` answers a body without end (JSON whitespace, stopped at 64 MiB). */
  | 'endless_body'
  /** `DELETE /v4/transactions` answers a gzip body that inflates without end (stopped at 256 MiB inflated). */
  | 'gzip_bomb'
  /** A 400 to `POST /v4/transactions`: its first `details` entry points one level deeper (`/value` appended). */
  | 'error_pointer'
  /** `GET /v4/transactions` answers its page's records in reverse order. */
  | 'page_order';

/** A body streamed by `endless_body` or `gzip_bomb`: how much of it was produced, and whether the client hung up first. */
export interface StreamedBody {
  drift: 'endless_body' | 'gzip_bomb';
  /** Bytes produced before the client closed the connection (before compression for `gzip_bomb`). */
  bytes: number;
  /** The client closed the connection before the body's end. */
  abandoned: boolean;
}

export interface DriftProxy {
  /** Base of the proxied API (`…/v4`). */
  apiUrl: string;
  /** The bodies streamed by `endless_body` and `gzip_bomb`, once each has ended. */
  streamed: StreamedBody[];
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, ' ');

/** Streams `limit` bytes of JSON whitespace (through gzip when `gzip`), stopping early when the client hangs up. */
function streamHugeBody(res: ServerResponse, drift: StreamedBody['drift'], limit: number, done: (s: StreamedBody) => void): void {
  const gzip = drift === 'gzip_bomb';
  res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
  const sink = gzip ? createGzip() : res;
  if (gzip) (sink as ReturnType<typeof createGzip>).pipe(res);
  const record: StreamedBody = { drift, bytes: 0, abandoned: false };
  let closed = false;
  res.on('close', () => {
    closed = true;
    record.abandoned = !res.writableFinished;
    if (gzip) (sink as ReturnType<typeof createGzip>).destroy();
    done(record);
  });
  const pump = (): void => {
    while (!closed && record.bytes < limit) {
      record.bytes += CHUNK.length;
      if (!sink.write(CHUNK)) {
        sink.once('drain', pump);
        return;
      }
    }
    if (!closed) sink.end();
  };
  pump();
}

function hugeBodyDrift(req: IncomingMessage, path: string, drifts: Drift[]): StreamedBody['drift'] | null {
  if (drifts.includes('endless_body') && req.method === 'GET' && path === '/v4/buyers') return 'endless_body';
  if (drifts.includes('gzip_bomb') && req.method === 'DELETE' && path === '/v4/transactions') return 'gzip_bomb';
  return null;
}

type Json = Record<string, unknown>;

/** Starts the proxy on a free loopback port in front of `origin` (the sandbox's origin). */
export async function startDriftProxy(origin: string, drifts: Drift[]): Promise<DriftProxy> {
  let lastItemOfPage: unknown = undefined;
  const streamed: StreamedBody[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const huge = hugeBodyDrift(req, new URL(req.url ?? '/', origin).pathname, drifts);
      if (huge !== null) {
        streamHugeBody(res, huge, huge === 'gzip_bomb' ? 256 * 1024 * 1024 : 64 * 1024 * 1024, (s) => streamed.push(s));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      void fetch(origin + (req.url ?? '/'), { method: req.method, headers, body }).then(
        async (answer) => {
          let status = answer.status;
          const text = await answer.text();
          let out = text;
          const path = new URL(req.url ?? '/', origin).pathname;
          const query = new URL(req.url ?? '/', origin).searchParams;
          const replay = answer.headers.get('idempotent-replayed');
          if ((answer.headers.get('content-type') ?? '').includes('json') && text !== '') {
            let json = JSON.parse(text) as Json;
            // a replayed create answered with a fresh read of the record instead of the stored answer
            if (
              drifts.includes('replay_current_record') &&
              replay === 'true' &&
              req.method === 'POST' &&
              path === '/v4/transactions' &&
              typeof json.id === 'string'
            ) {
              const { 'content-type': _type, ...readHeaders } = headers;
              json = (await (await fetch(`${origin}/v4/transactions/${json.id}`, { headers: readHeaders })).json()) as Json;
            }
            // transaction list items without description
            if (
              drifts.includes('list_item_dropped_field') &&
              req.method === 'GET' &&
              path === '/v4/transactions' &&
              Array.isArray(json.items)
            )
              for (const item of json.items as Json[]) delete item.description;
            // a buyer page without updated_at
            if (drifts.includes('dropped_field') && path === '/v4/buyers' && Array.isArray(json.items))
              for (const item of json.items as Json[]) delete item.updated_at;
            // refunded_amount as a string on a read
            if (
              drifts.includes('changed_type') &&
              req.method === 'GET' &&
              /^\/v4\/transactions\/[^/]+$/.test(path) &&
              typeof json.refunded_amount === 'number'
            )
              json.refunded_amount = String(json.refunded_amount);
            // a checkout-mode create answered without its payment_url
            if (
              drifts.includes('checkout_no_payment_url') &&
              req.method === 'POST' &&
              path === '/v4/transactions' &&
              typeof json.payment_url === 'string'
            )
              delete json.payment_url;
            // the first detail of a validation error points one level deeper
            if (
              drifts.includes('error_pointer') &&
              status === 400 &&
              path === '/v4/transactions' &&
              Array.isArray(json.details) &&
              json.details.length > 0
            ) {
              const first = json.details[0] as Json;
              first.pointer = `${String(first.pointer)}/value`;
            }
            // a page of transactions in reverse order
            if (drifts.includes('page_order') && req.method === 'GET' && path === '/v4/transactions' && Array.isArray(json.items))
              json.items = [...(json.items as unknown[])].reverse();
            // another error code for 401
            if (drifts.includes('error_code') && json.code === 'unauthorized') json.code = 'invalid_token';
            // 404 instead of 405
            if (drifts.includes('status') && status === 405) {
              status = 404;
              json.status = 404;
              json.code = 'not_found';
            }
            // 401 unauthorized where the token is valid but lacks the scope (403)
            if (drifts.includes('forbidden_as_unauthorized') && status === 403) {
              status = 401;
              json.status = 401;
              json.code = 'unauthorized';
            }
            // the next page of transactions starts again with the last record of the page before
            if (drifts.includes('repeated_record') && req.method === 'GET' && path === '/v4/transactions' && Array.isArray(json.items)) {
              const items = json.items as unknown[];
              if (query.has('cursor') && lastItemOfPage !== undefined && items.length > 0)
                json.items = [lastItemOfPage, ...items.slice(0, -1)];
              lastItemOfPage = items.at(-1);
            }
            out = JSON.stringify(json);
          }
          res.writeHead(status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
            ...(replay ? { 'idempotent-replayed': replay } : {}),
          });
          res.end(out);
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}/v4`,
    streamed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
