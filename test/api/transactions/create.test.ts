/** POST/GET /v4/transactions: fields, validation pointers, mode rules, masking. */
import { describe, expect, it } from 'vitest';
import { CHECKOUT, DIRECT, body, directPayment, headers, testApp } from '../../support/app.js';

const post = (app: ReturnType<typeof testApp>['app'], payload: unknown, h = headers()) =>
  app.request('/v4/transactions', { method: 'POST', headers: h, body: JSON.stringify(payload) });

describe('POST /v4/transactions', () => {
  it('creates a PENDING transaction (201) with every field of its wire shape, readable by id', async () => {
    const { app } = testApp();
    const res = await post(app, directPayment({ metadata: { order: 'A-1' }, notification_url: 'http://127.0.0.1:9/hooks' }));
    expect(res.status).toBe(201);
    const tx = await body(res);
    expect(tx).toMatchObject({
      type: 'transaction',
      status: 'PENDING',
      amount: 1050,
      currency: 'USD',
      refunded_amount: 0,
      description: 'Order 1001',
      customer: { email: 'jane@example.com', name: 'Jane Doe' },
      external_identifier: 'order-1001',
      notification_url: 'http://127.0.0.1:9/hooks',
      metadata: { order: 'A-1' },
      merchant_account_id: DIRECT.account_id,
      payment_method: { type: 'card', card: { last4: '1111', expiration_date: '12/30', brand: 'visa' } },
      payment_url: null,
    });
    expect(tx.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/); // a UUID of version 7
    expect(tx.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const again = await app.request(`/v4/transactions/${String(tx.id)}`, { headers: headers() });
    expect(again.status).toBe(200);
    expect(await body(again)).toEqual(tx);
  });

  it('gives each transaction and refund a time-ordered id (UUID version 7): a later create has a greater id', async () => {
    const { app } = testApp();
    const ids: string[] = [];
    const succeeding = directPayment({
      payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/30', security_code: '123' },
    });
    for (let i = 0; i < 5; i++) {
      const res = await post(app, i === 0 ? succeeding : directPayment(), headers(DIRECT, { 'idempotency-key': `order-${i}` }));
      ids.push(String((await body(res)).id));
    }
    expect([...ids].sort()).toEqual(ids);
    const refunds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.request(`/v4/transactions/${ids[0]}/refunds`, {
        method: 'POST',
        headers: headers(DIRECT, { 'idempotency-key': `refund-${i}` }),
        body: JSON.stringify({ amount: 100 }),
      });
      expect(res.status).toBe(201);
      refunds.push(String((await body(res)).id));
    }
    for (const id of [...ids, ...refunds]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(refunds[1]! > refunds[0]!).toBe(true);
  });

  it('never stores or echoes the full card number or the security code', async () => {
    const { app, db } = testApp();
    const res = await post(app, directPayment());
    const text = await res.text();
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('"123"');
    const dump = JSON.stringify(db.prepare('SELECT * FROM transactions').all());
    expect(dump).not.toContain('4111111111111111');
    expect(dump).not.toContain('security_code');
  });

  it('lists every failing field with a JSON pointer, including nested ones', async () => {
    const { app } = testApp();
    const res = await post(app, {
      amount: 'ten',
      currency: 'USX',
      customer: { email: 'not-an-email' },
      return_url: 'javascript:alert(1)',
      payment_method: { type: 'card', number: '4111111111111112', expiration_date: '13/30', security_code: '12' },
      browser_info: { color_depth: 7 },
    });
    expect(res.status).toBe(400);
    const err = await body<{ code: string; details: { pointer: string; location: string; type: string; message: string }[] }>(res);
    expect(err.code).toBe('bad_request');
    const pointers = err.details.map((d) => d.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/amount',
        '/currency',
        '/customer/email',
        '/return_url',
        '/payment_method/number',
        '/payment_method/expiration_date',
        '/payment_method/security_code',
        '/browser_info/color_depth',
      ]),
    );
    expect(err.details.every((d) => d.location === 'body' && d.message.length > 0)).toBe(true);
    expect(err.details.find((d) => d.pointer === '/amount')!.type).toBe('type_error');
  });

  it('marks absent required fields as missing', async () => {
    const { app } = testApp();
    const err = await body<{ details: { pointer: string; type: string }[] }>(await post(app, {}));
    expect(err.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/amount', type: 'missing' }),
        expect.objectContaining({ pointer: '/currency', type: 'missing' }),
      ]),
    );
  });

  it('direct mode requires the card and browser_info', async () => {
    const { app } = testApp();
    const res = await post(app, { amount: 100, currency: 'USD' });
    expect(res.status).toBe(400);
    const err = await body<{ details: { pointer: string }[] }>(res);
    expect(err.details.map((d) => d.pointer).sort()).toEqual(['/browser_info', '/payment_method']);
    const partial = await body<{ details: { pointer: string }[] }>(
      await post(app, directPayment({ payment_method: { type: 'card', number: '4111111111111111' } })),
    );
    expect(partial.details.map((d) => d.pointer).sort()).toEqual(['/payment_method/expiration_date', '/payment_method/security_code']);
  });

  it('accepts a wallet method with a channel code in direct mode', async () => {
    const { app } = testApp();
    const res = await post(app, directPayment({ currency: 'THB', payment_method: { type: 'wallet', payment_channel_code: 'TRUEMONEY' } }));
    expect(res.status).toBe(201);
    expect((await body(res)).payment_method).toEqual({ type: 'wallet', payment_channel_code: 'TRUEMONEY' });
  });

  it('checkout mode: no card needed, a payment_url, return_url required', async () => {
    const { app } = testApp();
    const h = headers(CHECKOUT);
    const missing = await post(app, { amount: 500, currency: 'EUR' }, h);
    expect(missing.status).toBe(400);
    expect((await body<{ details: { pointer: string }[] }>(missing)).details[0]!.pointer).toBe('/return_url');
    const res = await post(
      app,
      { amount: 500, currency: 'EUR', return_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' },
      h,
    );
    expect(res.status).toBe(201);
    const tx = await body(res);
    expect(tx.payment_url).toBe(`http://127.0.0.1:4010/pay/${String(tx.id)}`);
    expect(tx.payment_method).toBeNull();
  });

  it('ignores unknown fields as production would, and logs a warning', async () => {
    const { app } = testApp();
    const res = await post(app, directPayment({ loyalty_points: 5, customer: { email: 'a@b.co', nickname: 'x' } }));
    expect(res.status).toBe(201);
    const tx = await body(res);
    expect(tx).not.toHaveProperty('loyalty_points');
    const log = await body<{ items: { path: string; warnings: string[] }[] }>(
      await app.request(`/_sandbox/requests?account_id=${DIRECT.account_id}`),
    );
    expect(log.items[0]!.warnings.sort()).toEqual(['unknown field /customer/nickname ignored', 'unknown field /loyalty_points ignored']);
  });

  it('404 for an unknown id', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions/00000000-0000-4000-8000-000000000000', { headers: headers() });
    expect(res.status).toBe(404);
    expect(await body(res)).toMatchObject({ type: 'error', code: 'not_found', status: 404 });
  });
});
