/**
 * The fidelity decisions over a real socket, as a merchant's code meets them: a JWT minted
 * with real time survives time travel, nulls from a serializer, a malformed path id, an
 * IDR 100,000,000 payment and its exact webhook amount, a method type that contradicts its
 * channel, and a body-less refund sent with a JSON content type. The same idempotency key
 * with another body while the first request is still running is checked through the app
 * (api/core/http/optional-nulls-path-ids-and-amount-limits).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../src/server.js';
import { DIRECT, directPayment, headers, jwt, startReceiver, type Receiver } from '../../../support/app.js';

let server: RunningServer;
let receiver: Receiver;
beforeAll(async () => {
  [server, receiver] = await Promise.all([startServer({ port: 0, host: '127.0.0.1', ticker: false }), startReceiver()]);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

interface Json {
  [key: string]: unknown;
}
const now = (): number => Math.floor(Date.now() / 1000);
const call = async (path: string, init: RequestInit = {}): Promise<{ status: number; json: Json }> => {
  const res = await fetch(`${server.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, json: (text === '' ? {} : JSON.parse(text)) as Json };
};
const post = (path: string, payload: unknown, extra: Record<string, string> = {}) =>
  call(path, { method: 'POST', headers: headers(DIRECT, extra), body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
const advance = (seconds: number) =>
  call('/_sandbox/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds }) });

describe('the fidelity decisions over HTTP', () => {
  it('a JWT minted now works after the sandbox clock is advanced 6 hours; iat 2 s ahead is fine; beyond the leeway it is 401', async () => {
    const bearer = (claims: Json) => ({ authorization: `Bearer ${jwt(claims)}`, 'x-merchant-account-id': DIRECT.account_id });
    const token = { scopes: ['transactions.read'], iat: now(), exp: now() + 300 };
    expect((await call('/v4/transactions', { headers: bearer(token) })).status).toBe(200);
    expect((await advance(6 * 3600)).status).toBe(200);
    expect((await call('/v4/transactions', { headers: bearer(token) })).status).toBe(200);
    expect((await call('/v4/transactions', { headers: bearer({ ...token, iat: now() + 2 }) })).status).toBe(200);
    const ahead = await call('/v4/transactions', { headers: bearer({ ...token, iat: now() + 120 }) });
    expect(ahead.status).toBe(401);
    const expired = await call('/v4/transactions', { headers: bearer({ ...token, iat: now() - 600, exp: now() - 120 }) });
    expect(expired.status).toBe(401);
  });

  it('nulls as a serializer writes them: optional ones are absent, a required one is missing', async () => {
    const ok = await post('/v4/transactions', directPayment({ description: null, metadata: null, customer: null, notification_url: null }));
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({ description: null, metadata: null, customer: null });
    const bad = await post('/v4/transactions', directPayment({ currency: null }));
    expect(bad.status).toBe(400);
    expect(bad.json.details).toEqual([{ type: 'missing', pointer: '/currency', message: expect.any(String), location: 'body' }]);
  });

  it('a path id that is not a UUID is 400 at location path; a well-formed unknown one is 404', async () => {
    const malformed = await call('/v4/transactions/abc', { headers: headers() });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({
      type: 'error',
      code: 'bad_request',
      status: 400,
      message: expect.any(String),
      details: [{ type: 'uuid', pointer: '/transaction_id', message: expect.any(String), location: 'path' }],
    });
    expect((await call('/v4/subscriptions/abc/cancel', { method: 'POST', headers: headers() })).json.details).toEqual([
      expect.objectContaining({ type: 'uuid', location: 'path' }),
    ]);
    expect((await call('/v4/transactions/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5', { headers: headers() })).status).toBe(404);
  });

  it('IDR 100,000,000 is accepted, and its webhook amount is the exact decimal string', async () => {
    const created = await post(
      '/v4/transactions',
      directPayment({ currency: 'IDR', amount: 10_000_000_000, external_identifier: 'order-idr', notification_url: receiver.url }),
    );
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ amount: 10_000_000_000, currency: 'IDR' });
    const top = await post(
      '/v4/transactions',
      directPayment({ currency: 'USD', amount: 999_999_999_999, external_identifier: 'order-top', notification_url: receiver.url }),
    );
    expect(top.status).toBe(201);
    for (const tx of [created, top])
      expect((await call(`/_sandbox/transactions/${String(tx.json.id)}/settle`, { method: 'POST' })).status).toBe(200);
    const hooks = await Promise.all(
      ['order-idr', 'order-top'].map((ref) => receiver.waitForMatch((h) => (h.body as Json).merchant_transaction_id === ref)),
    );
    expect(hooks.map((h) => (h.body as { payment_data: Json }).payment_data)).toEqual([
      expect.objectContaining({ payment_amount: '100000000.00', payment_currency_code: 'IDR', settlement_amount: '100000000.00' }),
      expect.objectContaining({ payment_amount: '9999999999.99', payment_currency_code: 'USD', settlement_amount: '9999999999.99' }),
    ]);
    expect(hooks.every((h) => h.verified)).toBe(true);
  });

  it('payment_method.type card with PROMPTPAY is 400 at /payment_method/type naming qr', async () => {
    const res = await post(
      '/v4/transactions',
      directPayment({
        currency: 'THB',
        payment_method: {
          type: 'card',
          payment_channel_code: 'PROMPTPAY',
          number: '4111111111111111',
          expiration_date: '12/30',
          security_code: '123',
        },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json.details).toEqual([
      { type: 'value_error', pointer: '/payment_method/type', location: 'body', message: expect.stringContaining('"qr"') },
    ]);
  });

  it('a body-less refund with Content-Type: application/json refunds the remainder, as {} does', async () => {
    const tx = await post('/v4/transactions', directPayment({ amount: 2000 }));
    expect((await call(`/_sandbox/transactions/${String(tx.json.id)}/settle`, { method: 'POST' })).status).toBe(200);
    const refund = await call(`/v4/transactions/${String(tx.json.id)}/refunds`, { method: 'POST', headers: headers() });
    expect(refund.status).toBe(201);
    expect(refund.json).toMatchObject({ amount: 2000, status: 'SUCCESS' });
  });
});
