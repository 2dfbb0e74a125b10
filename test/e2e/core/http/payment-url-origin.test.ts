/**
 * Without `--public-url`, a payment link is built from the origin the request came in on,
 * over a real socket: a client that reaches the sandbox through a mapped port (its Host says
 * that port) gets links to that port, not to the listening address.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { CHECKOUT, headers } from '../../../support/app.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false });
});
afterAll(() => server.stop());

/** POSTs `payload` to the server with the given Host header; resolves with the status and JSON body. */
function post(path: string, host: string, payload: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', headers: { ...headers(CHECKOUT), host } }, (res) => {
      let raw = '';
      res.on('data', (d: Buffer) => (raw += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(raw) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(payload));
  });
}

describe('payment_url behind a mapped port', () => {
  it('uses the Host of the request', async () => {
    const mappedPort = server.port === 65535 ? 65534 : server.port + 1;
    const res = await post('/v4/transactions', `localhost:${mappedPort}`, {
      amount: 500,
      currency: 'THB',
      return_url: 'https://m.example/r',
      payment_method: { type: 'card' },
    });
    expect(res.status).toBe(201);
    expect(res.json.payment_url).toBe(`http://localhost:${mappedPort}/pay/${String(res.json.id)}`);
  });
});
