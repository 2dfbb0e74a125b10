/**
 * A deliberately drifting server for the conformance kit's tests: a node:http proxy in front of
 * a real sandbox that rewrites some of its answers, one kind of drift each.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Drift =
  'dropped_field' | 'changed_type' | 'error_code' | 'status' | 'repeated_record' | 'checkout_no_payment_url' | 'forbidden_as_unauthorized';

export interface DriftProxy {
  /** Base of the proxied API (`…/v4`). */
  apiUrl: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Starts the proxy on a free loopback port in front of `origin` (the sandbox's origin). */
export async function startDriftProxy(origin: string, drifts: Drift[]): Promise<DriftProxy> {
  let lastItemOfPage: unknown = undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
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
          if ((answer.headers.get('content-type') ?? '').includes('json') && text !== '') {
            const json = JSON.parse(text) as Json;
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
          const replay = answer.headers.get('idempotent-replayed');
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
