/**
 * Where the sandbox is faithful to the spec where merchants trip,
 * through app.request: nulls on optional fields, path ids, amount limits, method type and
 * channel, empty bodies, and the overlap of idempotency rules 5 and 6.
 */
import { describe, expect, it } from 'vitest';
import { CHECKOUT, DIRECT, body, directPayment, headers, testApp } from '../../../support/app.js';
import { checkoutSubscription, directSubscription, postSubscription } from '../../../support/subscriptions.js';

type App = ReturnType<typeof testApp>['app'];
interface Detail {
  type: string;
  pointer: string;
  message: string;
  location: string;
}
interface ErrorBody {
  type: string;
  code: string;
  status: number;
  message: string;
  details: Detail[];
}

const postTx = (app: App, payload: unknown, creds = DIRECT, extra: Record<string, string> = {}) =>
  Promise.resolve(app.request('/v4/transactions', { method: 'POST', headers: headers(creds, extra), body: JSON.stringify(payload) }));

const UNKNOWN_ID = '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5';

describe('explicit null on an optional field is the field left out', () => {
  it('transactions: description, metadata, customer and every other optional field null are accepted, and echoed as absent', async () => {
    const { app } = testApp();
    const res = await postTx(
      app,
      directPayment({
        description: null,
        metadata: null,
        customer: null,
        external_identifier: null,
        notification_url: null,
        return_url: null,
        cancel_url: null,
        payment_method: {
          type: 'card',
          number: '4111111111111111',
          expiration_date: '12/30',
          security_code: '123',
          holder_name: null,
          payment_channel_code: null,
          redirect_url: null,
          webhooks_url: null,
        },
        browser_info: { javascript_enabled: null, language: null, user_agent: 'vitest', color_depth: null, user_device: null },
      }),
    );
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({
      description: null,
      metadata: null,
      customer: null,
      external_identifier: null,
      status: 'PENDING',
    });
  });

  it('checkout transactions and nested optional objects too (customer fields, payment_method)', async () => {
    const { app } = testApp();
    const res = await postTx(
      app,
      {
        amount: 500,
        currency: 'USD',
        return_url: 'https://m.example/r',
        customer: { email: null, name: 'Jane' },
        payment_method: null,
        browser_info: null,
      },
      CHECKOUT,
    );
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ customer: { name: 'Jane' } });
  });

  it('subscriptions: trial_end, description, metadata, billing_details, cart_items, browser_info fields and plan options null', async () => {
    const { app } = testApp();
    const direct = directSubscription({
      trial_end: null,
      description: null,
      metadata: null,
      billing_details: null,
      cart_items: null,
      customer: { email_address: 'jane@example.com', first_name: null, last_name: null, phone_number: null, display_name: null },
      plan: {
        name: 'Gold',
        currency: 'USD',
        amount: 900,
        interval: 'month',
        interval_time: null,
        trial_period_days: null,
        billing_cycle_anchor: null,
        payment_attempts: null,
      },
    });
    const res = await postSubscription(app, direct);
    expect(res.status).toBe(201);
    const sub = await body<{ plan: Record<string, unknown>; trial_end: unknown }>(res);
    expect(sub.plan).toMatchObject({ interval_time: 1, payment_attempts: 3 });
    expect(sub.trial_end).toBeNull();
    const checkout = await postSubscription(
      app,
      checkoutSubscription({ external_identifier: 'sub-null-2', trial_end: null, browser_info: null }),
      CHECKOUT,
    );
    expect(checkout.status).toBe(201);
  });

  it('refunds: amount, reason and external_identifier null (amount null = the whole remainder)', async () => {
    const { app, features } = testApp();
    const tx = await body<{ id: string }>(await postTx(app, directPayment()));
    features.transactions.service.resolve(tx.id, 'SUCCEEDED');
    const res = await app.request(`/v4/transactions/${tx.id}/refunds`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ amount: null, reason: null, external_identifier: null }),
    });
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ amount: 1050, reason: null, external_identifier: null });
  });

  it('a body with nulls and the same body without them are the same request for its idempotency key', async () => {
    const { app } = testApp();
    const first = await postTx(app, directPayment({ description: null }), DIRECT, { 'idempotency-key': 'null-key' });
    expect(first.status).toBe(201);
    const { description: _d, ...without } = directPayment();
    const again = await postTx(app, without, DIRECT, { 'idempotency-key': 'null-key' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a required field sent as null is 400 missing at its pointer (not type_error), at every depth', async () => {
    const { app } = testApp();
    const res = await postTx(
      app,
      directPayment({
        amount: null,
        currency: null,
        payment_method: { type: 'card', number: null, expiration_date: '12/30', security_code: '123' },
      }),
    );
    expect(res.status).toBe(400);
    const { details } = await body<ErrorBody>(res);
    expect(details.map((d) => [d.pointer, d.type, d.location]).sort()).toEqual([
      ['/amount', 'missing', 'body'],
      ['/currency', 'missing', 'body'],
      ['/payment_method/number', 'missing', 'body'],
    ]);
    const sub = await postSubscription(
      app,
      directSubscription({ customer: { email_address: null }, plan: { name: null, currency: 'USD', amount: 900, interval: 'month' } }),
    );
    expect(sub.status).toBe(400);
    const subDetails = (await body<ErrorBody>(sub)).details;
    expect(subDetails.map((d) => [d.pointer, d.type]).sort()).toEqual([
      ['/customer/email_address', 'missing'],
      ['/plan/name', 'missing'],
    ]);
  });

  it('a null metadata value is still a type error (metadata values are strings; a record has no optional fields)', async () => {
    const { app } = testApp();
    const res = await postTx(app, directPayment({ metadata: { order: null } }));
    expect(res.status).toBe(400);
    expect((await body<ErrorBody>(res)).details).toEqual([expect.objectContaining({ pointer: '/metadata/order', type: 'type_error' })]);
  });
});

describe('path ids', () => {
  const routes: [string, string][] = [
    ['GET', '/v4/transactions/abc'],
    ['GET', '/v4/transactions/abc/refunds'],
    ['POST', '/v4/transactions/abc/refunds'],
    ['GET', '/v4/subscriptions/abc'],
    ['POST', '/v4/subscriptions/abc/cancel'],
  ];

  it.each(routes)('%s %s: an id that is not a UUID is 400 with a uuid detail at location path', async (method, path) => {
    const { app } = testApp();
    const res = await app.request(path, { method, headers: headers(), ...(method === 'POST' ? { body: '{}' } : {}) });
    expect(res.status).toBe(400);
    const b = await body<ErrorBody>(res);
    const name = path.startsWith('/v4/transactions') ? 'transaction_id' : 'subscription_id';
    expect(b).toEqual({
      type: 'error',
      code: 'bad_request',
      status: 400,
      message: expect.any(String),
      details: [{ type: 'uuid', pointer: `/${name}`, message: expect.stringMatching(/UUID/), location: 'path' }],
    });
  });

  it.each(routes)('%s %s: a well-formed id that does not exist stays 404', async (method, path) => {
    const { app } = testApp();
    const res = await app.request(path.replace('abc', UNKNOWN_ID), {
      method,
      headers: headers(),
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    expect(res.status).toBe(404);
    expect((await body<ErrorBody>(res)).code).toBe('not_found');
  });

  it('authentication still comes first: no token on a malformed id is 401', async () => {
    const { app } = testApp();
    expect((await app.request('/v4/transactions/abc')).status).toBe(401);
  });
});

describe('amount limits', () => {
  it.each([
    ['IDR', 10_000_000_000, 'IDR 100,000,000'],
    ['KRW', 50_000_000, 'KRW 50,000,000'],
    ['USD', 999_999_999_999, 'the limit'],
    ['JPY', 999_999_999_999, 'the limit'],
    ['BHD', 999_999_999_999, 'the limit'],
  ])('%s %d (%s) is accepted', async (currency, amount) => {
    const { app } = testApp();
    const res = await postTx(app, directPayment({ currency, amount }));
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ amount, currency });
  });

  it('the limit is in the OpenAPI document', async () => {
    const { app } = testApp();
    const doc = (await (await app.request('/openapi.json')).json()) as { components: { schemas: Record<string, unknown> } };
    for (const name of ['TransactionCreate', 'RefundCreate', 'SubscriptionCreate'])
      expect(JSON.stringify(doc.components.schemas[name]), name).toContain('"maximum":999999999999');
  });

  it('one minor unit over 999,999,999,999 is 400 at /amount', async () => {
    const { app } = testApp();
    const res = await postTx(app, directPayment({ amount: 1_000_000_000_000 }));
    expect(res.status).toBe(400);
    expect((await body<ErrorBody>(res)).details).toEqual([expect.objectContaining({ pointer: '/amount', type: 'value_error' })]);
  });

  it('subscriptions take the same limit (amount and plan.amount)', async () => {
    const { app } = testApp();
    const idr = directSubscription({
      currency: 'IDR',
      amount: 10_000_000_000,
      plan: { name: 'Gold', currency: 'IDR', amount: 999_999_999_999, interval: 'month' },
    });
    const res = await postSubscription(app, idr);
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ amount: 10_000_000_000, plan: { amount: 999_999_999_999 } });
  });

  it('a refund of the whole of such an amount is exact', async () => {
    const { app, features } = testApp();
    const tx = await body<{ id: string }>(await postTx(app, directPayment({ currency: 'IDR', amount: 999_999_999_999 })));
    features.transactions.service.resolve(tx.id, 'SUCCEEDED');
    const refund = await app.request(`/v4/transactions/${tx.id}/refunds`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ amount: 999_999_999_998 }),
    });
    expect(refund.status).toBe(201);
    const got = await body(await app.request(`/v4/transactions/${tx.id}`, { headers: headers() }));
    expect(got).toMatchObject({ amount: 999_999_999_999, refunded_amount: 999_999_999_998 });
  });
});

describe('payment_method.type agrees with payment_channel_code', () => {
  const mismatches: [string, string, string, string][] = [
    ['PROMPTPAY', 'card', 'THB', '"qr"'],
    ['CARD', 'wallet', 'USD', '"card"'],
    ['TRUEMONEY', 'qr', 'THB', '"wallet"'],
    ['KPLUS', 'wallet', 'THB', '"mobile_banking"'],
    ['ALIPAY', 'mobile_banking', 'CNY', '"wallet"'],
    ['PIX', 'wallet', 'BRL', '"qr"'],
  ];

  it.each(mismatches)('%s with type %s (in %s) is 400 at /payment_method/type naming %s', async (code, type, currency, expected) => {
    const { app } = testApp();
    const card = type === 'card' ? { number: '4111111111111111', expiration_date: '12/30', security_code: '123' } : {};
    const res = await postTx(app, directPayment({ currency, payment_method: { type, payment_channel_code: code, ...card } }));
    expect(res.status).toBe(400);
    const { details } = await body<ErrorBody>(res);
    expect(details).toEqual([
      { type: 'value_error', pointer: '/payment_method/type', location: 'body', message: expect.stringContaining(expected) },
    ]);
  });

  it('checkout transactions and subscriptions (direct and checkout) check it too', async () => {
    const { app } = testApp();
    const checkout = await postTx(
      app,
      {
        amount: 500,
        currency: 'THB',
        return_url: 'https://m.example/r',
        payment_method: { type: 'card', payment_channel_code: 'PROMPTPAY' },
      },
      CHECKOUT,
    );
    expect(checkout.status).toBe(400);
    expect((await body<ErrorBody>(checkout)).details.map((d) => d.pointer)).toEqual(['/payment_method/type']);
    const thb = { currency: 'THB', plan: { name: 'Gold', currency: 'THB', amount: 900, interval: 'month' } };
    const direct = await postSubscription(
      app,
      directSubscription({ ...thb, payment_method: { type: 'wallet', payment_channel_code: 'PROMPTPAY' } }),
    );
    expect(direct.status).toBe(400);
    expect((await body<ErrorBody>(direct)).details).toEqual([
      expect.objectContaining({ pointer: '/payment_method/type', message: expect.stringContaining('"qr"') }),
    ]);
    const checkoutSub = await postSubscription(
      app,
      checkoutSubscription({ payment_method: { type: 'qr', payment_channel_code: 'CARD' } }),
      CHECKOUT,
    );
    expect(checkoutSub.status).toBe(400);
    expect((await body<ErrorBody>(checkoutSub)).details).toEqual([
      expect.objectContaining({ pointer: '/payment_method/type', message: expect.stringContaining('"card"') }),
    ]);
  });
});

describe('an empty body with Content-Type: application/json', () => {
  it('is {} on a refund (the whole remainder) and on a cancel, alike', async () => {
    const { app, features } = testApp();
    const tx = await body<{ id: string }>(await postTx(app, directPayment()));
    features.transactions.service.resolve(tx.id, 'SUCCEEDED');
    const refund = await app.request(`/v4/transactions/${tx.id}/refunds`, { method: 'POST', headers: headers(), body: '' });
    expect(refund.status).toBe(201);
    expect(await body(refund)).toMatchObject({ amount: 1050 });

    const sub = await body<{ id: string }>(await postSubscription(app, directSubscription()));
    const cancel = await app.request(`/v4/subscriptions/${sub.id}/cancel`, { method: 'POST', headers: headers(), body: '' });
    expect(cancel.status).toBe(200);
    expect(await body(cancel)).toMatchObject({ status: 'cancelled' });
  });

  it('a refund and a cancel with {} or no content type at all answer the same; malformed JSON is 400 on both', async () => {
    const { app, features } = testApp();
    const tx = await body<{ id: string }>(await postTx(app, directPayment({ amount: 3000 })));
    features.transactions.service.resolve(tx.id, 'SUCCEEDED');
    const refund = (init: RequestInit) => app.request(`/v4/transactions/${tx.id}/refunds`, { method: 'POST', ...init });
    const { 'content-type': _ct, ...bare } = headers();
    expect((await refund({ headers: headers(), body: JSON.stringify({ amount: 1000 }) })).status).toBe(201);
    expect((await refund({ headers: headers(), body: '{}' })).status).toBe(201);
    expect((await refund({ headers: bare })).status).toBe(400); // nothing left to refund
    const bad = await refund({ headers: headers(), body: '{' });
    expect(bad.status).toBe(400);
    expect((await body<ErrorBody>(bad)).details[0]!.type).toBe('json_invalid');

    for (const init of [{ headers: headers(), body: '{}' }, { headers: bare }]) {
      const sub = await body<{ id: string }>(
        await postSubscription(app, directSubscription({ external_identifier: `sub-${Math.random()}` })),
      );
      expect((await app.request(`/v4/subscriptions/${sub.id}/cancel`, { method: 'POST', ...init })).status).toBe(200);
    }
    const sub = await body<{ id: string }>(await postSubscription(app, directSubscription({ external_identifier: 'sub-malformed' })));
    const malformed = await app.request(`/v4/subscriptions/${sub.id}/cancel`, { method: 'POST', headers: headers(), body: '{' });
    expect(malformed.status).toBe(400);
    expect((await body<ErrorBody>(malformed)).details[0]!.type).toBe('json_invalid');
  });

  it('on a create, whose body is required, it is 400 missing (not malformed JSON)', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: '' });
    expect(res.status).toBe(400);
    expect((await body<ErrorBody>(res)).details).toEqual([
      { type: 'missing', pointer: '', message: 'A JSON body is required', location: 'body' },
    ]);
  });
});

describe('idempotency rules 5 and 6 overlap: the same key with a different body while the first still runs', () => {
  it('rule 5 wins: 409 concurrent_request (retry later); once the first has answered, rule 6: 400 already in use', async () => {
    const { app } = testApp({ latency: { p50Ms: 400, p99Ms: 400 } });
    const first = postTx(app, directPayment(), DIRECT, { 'idempotency-key': 'overlap' });
    await new Promise((r) => setTimeout(r, 100));
    const different = await postTx(app, directPayment({ amount: 2000 }), DIRECT, { 'idempotency-key': 'overlap' });
    expect(different.status).toBe(409);
    expect(await body(different)).toMatchObject({ type: 'error', code: 'concurrent_request', status: 409 });
    expect((await first).status).toBe(201);
    const later = await postTx(app, directPayment({ amount: 2000 }), DIRECT, { 'idempotency-key': 'overlap' });
    expect(later.status).toBe(400);
    expect((await body<ErrorBody>(later)).message).toMatch(/already in use/);
  });
});
