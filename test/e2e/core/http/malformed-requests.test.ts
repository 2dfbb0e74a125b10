/**
 *, over raw sockets: requests refused before the app runs still get the spec's
 * error envelope (type, code, status, message, details with pointer and location). On main
 * each of these got an empty 400 or 417.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false });
});
afterAll(() => server.stop());

/** Sends `request` as it is written and reads the whole answer (the connection is closed after it). */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('end', () => {
      const cut = data.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1]), headers: data.slice(0, cut), body: data.slice(cut + 4) });
    });
    setTimeout(() => socket.destroy(new Error(`no end: ${data}`)), 5000).unref();
  });
}

const cases: [string, string, number, string][] = [
  ['Host [::ffff:127.0.0.1]', 'GET /_sandbox/health HTTP/1.1\r\nHost: [::ffff:127.0.0.1]\r\nConnection: close\r\n\r\n', 400, '/host'],
  ['Host localhost:abc', 'GET /v4/transactions HTTP/1.1\r\nHost: localhost:abc\r\nConnection: close\r\n\r\n', 400, '/host'],
  ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 400, ''],
  [
    'Expect: 200-ok',
    'POST /v4/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    417,
    '/expect',
  ],
];

describe('malformed requests get the error envelope', () => {
  it.each(cases)('%s', async (_name, request, status, pointer) => {
    const res = await raw(request);
    expect(res.status).toBe(status);
    expect(res.headers.toLowerCase()).toContain('content-type: application/json');
    const body = JSON.parse(res.body) as {
      type: string;
      code: string;
      status: number;
      message: string;
      details: { pointer: string; location: string; message: string; type: string }[];
    };
    expect(body).toMatchObject({ type: 'error', status, code: status === 417 ? 'expectation_failed' : 'bad_request' });
    expect(body.message.length).toBeGreaterThan(0);
    expect(body.details).toHaveLength(1);
    expect(body.details[0]).toMatchObject({ pointer, type: 'value_error' });
    expect(['header', 'path']).toContain(body.details[0]!.location);
  });

  it('Expect: 100-continue still works, and a normal request after them is answered', async () => {
    const res = await raw(
      'POST /v4/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(res.headers).toMatch(/^HTTP\/1\.1 100 Continue/);
    expect(res.body).toContain('HTTP/1.1 401');
    const health = await fetch(`${server.url}/_sandbox/health`);
    expect(health.status).toBe(200);
  });
});
