/**
 * What the sandbox says and what it does agree, through app.request: the payment-method
 * types, nulls on required fields, path ids in any case, renewals without a payment link,
 * links built from the request's origin, the statuses of the OpenAPI document and the
 * wording of error messages.
 */
import { describe, expect, it } from 'vitest';
import { CHECKOUT, DIRECT, body, directPayment, headers, testApp } from '../../../support/app.js';
import { paymentMethodTypeSchema } from '../../../../src/features/payment-methods/payment-method-schema.js';
import { DAY, advance, checkoutSubscription, createSubscription, directSubscription, withCharges } from '../../../support/subscriptions.js';

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
interface Channel {
  code: string;
  type: string;
  currencies: string[] | 'any';
}

const postTx = (app: App, payload: unknown, creds = DIRECT, extra: Record<string, string> = {}) =>
  Promise.resolve(app.request('/v4/transactions', { method: 'POST', headers: headers(creds, extra), body: JSON.stringify(payload) }));

const CARD_FIELDS = { number: '4111111111111111', expiration_date: '12/30', security_code: '123' };

describe('one vocabulary of payment-method types', () => {
  it('every channel of GET /_sandbox/payment-methods is accepted with the type listed for it', async () => {
    const { app } = testApp();
    const { groups } = await body<{ groups: { type: string; channels: Channel[] }[] }>(await app.request('/_sandbox/payment-methods'));
    for (const group of groups) {
      for (const channel of group.channels) {
        expect(channel.type, channel.code).toBe(group.type);
        const currency = channel.currencies === 'any' ? 'USD' : channel.currencies[0]!;
        const card = channel.type === 'card' ? CARD_FIELDS : {};
        const res = await postTx(
          app,
          directPayment({ currency, payment_method: { type: channel.type, payment_channel_code: channel.code, ...card } }),
        );
        expect(res.status, `${channel.code} with type ${channel.type}`).toBe(201);
      }
    }
  });

  it('the banking apps are listed as mobile_banking, the type a request sends with them', async () => {
    const { app } = testApp();
    const { groups } = await body<{ groups: { id: string; type: string; channels: Channel[] }[] }>(
      await app.request('/_sandbox/payment-methods'),
    );
    const banking = groups.find((g) => g.id === 'thai_banking_apps');
    expect(banking?.type).toBe('mobile_banking');
    expect(banking?.channels.map((c) => c.type)).toEqual(banking?.channels.map(() => 'mobile_banking'));
  });

  it('the request enum, in the schema and in the OpenAPI document, is exactly the union of the types the channels take', async () => {
    const { app } = testApp();
    const doc = await body<{ components: { schemas: Record<string, unknown> } }>(await app.request('/openapi.json'));
    const { groups } = await body<{ groups: { type: string; channels: Channel[] }[] }>(await app.request('/_sandbox/payment-methods'));
    const listed = new Set(groups.flatMap((g) => g.channels.map((c) => c.type)));
    const union = [...listed].sort();
    expect([...paymentMethodTypeSchema.options].sort()).toEqual(union);
    const enums = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      const type = (record.properties as Record<string, { enum?: unknown }> | undefined)?.type;
      if (record.properties && 'payment_channel_code' in (record.properties as object) && Array.isArray(type?.enum)) {
        for (const value of type.enum) enums.add(String(value));
      }
      Object.values(record).forEach(walk);
    };
    walk(doc);
    expect([...enums].sort()).toEqual(union);
  });

  it('instant_payment, which no channel takes, is 400 at /payment_method/type, with Pix too (Pix is qr)', async () => {
    const { app } = testApp();
    const res = await postTx(
      app,
      directPayment({ currency: 'BRL', payment_method: { type: 'instant_payment', payment_channel_code: 'PIX' } }),
    );
    expect(res.status).toBe(400);
    expect((await body<ErrorBody>(res)).details.map((d) => d.pointer)).toEqual(['/payment_method/type']);
  });

  it('bank_transfer, which no channel takes, is 400 in both modes', async () => {
    const { app } = testApp();
    const direct = await postTx(app, directPayment({ payment_method: { type: 'bank_transfer' } }));
    expect(direct.status).toBe(400);
    expect((await body<ErrorBody>(direct)).details.map((d) => d.pointer)).toEqual(['/payment_method/type']);
    const checkout = await postTx(
      app,
      { amount: 500, currency: 'THB', return_url: 'https://m.example/r', payment_method: { type: 'bank_transfer' } },
      CHECKOUT,
    );
    expect(checkout.status).toBe(400);
    expect((await body<ErrorBody>(checkout)).details.map((d) => d.pointer)).toEqual(['/payment_method/type']);
  });
});

describe('a required field sent as null', () => {
  it('is 400 missing at its pointer, enums included', async () => {
    const { app } = testApp();
    const res = await postTx(app, directPayment({ currency: null, payment_method: { type: null, ...CARD_FIELDS } }));
    expect(res.status).toBe(400);
    const { details } = await body<ErrorBody>(res);
    expect(details).toEqual(
      expect.arrayContaining([
        { type: 'missing', pointer: '/currency', location: 'body', message: 'Field required' },
        { type: 'missing', pointer: '/payment_method/type', location: 'body', message: 'Field required' },
      ]),
    );
    expect(details.map((d) => d.type)).toEqual(details.map(() => 'missing'));
  });

  it('a subscription plan interval sent as null is missing too', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/subscriptions', {
      method: 'POST',
      headers: headers(DIRECT, { 'X-Forwarded-For': '203.0.113.7' }),
      body: JSON.stringify({ ...directSubscription(), plan: { name: 'Gold', currency: 'USD', amount: 900, interval: null } }),
    });
    expect(res.status).toBe(400);
    expect((await body<ErrorBody>(res)).details).toEqual([
      { type: 'missing', pointer: '/plan/interval', location: 'body', message: 'Field required' },
    ]);
  });
});

describe('UUIDs in paths are case-insensitive', () => {
  it('an existing transaction, its refunds, its subscription, its control record and its payment page are found by the id in upper case', async () => {
    const { app } = testApp();
    const tx = await body<{ id: string }>(await postTx(app, directPayment()));
    const upper = tx.id.toUpperCase();
    expect(upper).not.toBe(tx.id);
    const got = await app.request(`/v4/transactions/${upper}`, { headers: headers() });
    expect(got.status).toBe(200);
    expect((await body<{ id: string }>(got)).id).toBe(tx.id);
    expect((await app.request(`/v4/transactions/${upper}/refunds`, { headers: headers() })).status).toBe(200);
    expect((await app.request(`/_sandbox/transactions/${upper}`)).status).toBe(200);

    const sub = await body<{ id: string }>(
      await app.request('/v4/subscriptions', {
        method: 'POST',
        headers: headers(DIRECT, { 'X-Forwarded-For': '203.0.113.7' }),
        body: JSON.stringify(directSubscription()),
      }),
    );
    const gotSub = await app.request(`/v4/subscriptions/${sub.id.toUpperCase()}`, { headers: headers() });
    expect(gotSub.status).toBe(200);
    expect((await body<{ id: string }>(gotSub)).id).toBe(sub.id);

    const pending = await body<{ id: string }>(
      await postTx(app, { amount: 500, currency: 'THB', return_url: 'https://m.example/r', payment_method: { type: 'card' } }, CHECKOUT),
    );
    expect((await app.request(`/pay/${pending.id.toUpperCase()}`)).status).toBe(200);
  });

  it('a well-formed id that does not exist is still 404', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions/6F1C2D3E-4B5A-4C6D-8E7F-8091A2B3C4D5', { headers: headers() });
    expect(res.status).toBe(404);
  });
});

describe('error messages name the rule', () => {
  it('a checkout transaction without return_url is missing, with a message saying it is required', async () => {
    const { app } = testApp();
    const res = await postTx(app, { amount: 500, currency: 'THB', payment_method: { type: 'card' } }, CHECKOUT);
    expect(res.status).toBe(400);
    expect((await body<ErrorBody>(res)).details).toEqual([
      { type: 'missing', pointer: '/return_url', location: 'body', message: expect.stringMatching(/return_url is required/) },
    ]);
  });

  it('a return_url that is not an http URL still says so', async () => {
    const { app } = testApp();
    const res = await postTx(
      app,
      { amount: 500, currency: 'THB', return_url: 'ftp://m.example/r', payment_method: { type: 'card' } },
      CHECKOUT,
    );
    expect((await body<ErrorBody>(res)).details).toEqual([
      expect.objectContaining({ pointer: '/return_url', message: 'Must be an http or https URL' }),
    ]);
  });

  it('amount 10.5 says the amount is an integer in minor units', async () => {
    const { app } = testApp();
    const res = await postTx(app, directPayment({ amount: 10.5 }));
    expect(res.status).toBe(400);
    const [detail] = (await body<ErrorBody>(res)).details;
    expect(detail).toMatchObject({ pointer: '/amount', location: 'body' });
    expect(detail?.message).toMatch(/integer/);
    expect(detail?.message).toMatch(/minor units \(e\.g\. cents/);
  });

  it('an unknown route says No route and suggests the nearest one', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transaction', { headers: headers() });
    expect(res.status).toBe(404);
    const err = await body<ErrorBody>(res);
    expect(err).toMatchObject({ type: 'error', code: 'not_found', status: 404 });
    expect(err.message).toMatch(/^No route for GET \/v4\/transaction\b/);
    expect(err.message).toContain('/v4/transactions');
    const withId = await body<ErrorBody>(await app.request('/v4/transaction/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5', { headers: headers() }));
    expect(withId.message).toContain('did you mean /v4/transactions/{transaction_id}?');
    const far = await body<ErrorBody>(await app.request('/v4/nothing-like-it', { headers: headers() }));
    expect(far.message).toBe('No route for GET /v4/nothing-like-it');
  });
});

describe('a payment charged without the customer', () => {
  it("a checkout subscription's renewal carries no payment_url; its first charge does", async () => {
    const { app, features } = testApp();
    const sub = await createSubscription(
      app,
      checkoutSubscription({ payment_method: { type: 'card', redirect_url: 'https://merchant.example/done' } }),
      CHECKOUT,
    );
    const [first] = (await withCharges(app, sub.id, CHECKOUT)).charges;
    const firstId = String(first?.id);
    features.transactions.service.resolve(firstId, 'SUCCEEDED');
    const paidFirst = await body<{ payment_url: string | null }>(
      await app.request(`/v4/transactions/${firstId}`, { headers: headers(CHECKOUT) }),
    );
    expect(paidFirst.payment_url).toMatch(new RegExp(`/pay/${firstId}$`));

    await advance(app, 32 * DAY);
    const charges = (await withCharges(app, sub.id, CHECKOUT)).charges;
    const renewals = charges.filter((c) => c.id !== firstId);
    expect(renewals.length).toBeGreaterThan(0);
    for (const renewal of renewals) {
      const got = await body<{ payment_url: string | null; status: string }>(
        await app.request(`/v4/transactions/${String(renewal.id)}`, { headers: headers(CHECKOUT) }),
      );
      expect(got.payment_url).toBeNull();
    }
  });
});

describe('payment links without --public-url', () => {
  const checkoutTx = { amount: 500, currency: 'THB', return_url: 'https://m.example/r', payment_method: { type: 'card' } };

  it('payment_url and payment_url_link are built from the Host the request came in on', async () => {
    const { app } = testApp();
    const mapped = { host: 'localhost:18443' };
    const tx = await body<{ id: string; payment_url: string }>(await postTx(app, checkoutTx, CHECKOUT, mapped));
    expect(tx.payment_url).toBe(`http://localhost:18443/pay/${tx.id}`);
    const got = await body<{ payment_url: string }>(
      await app.request(`/v4/transactions/${tx.id}`, { headers: headers(CHECKOUT, { host: '127.0.0.1:28080' }) }),
    );
    expect(got.payment_url).toBe(`http://127.0.0.1:28080/pay/${tx.id}`);
    const sub = await app.request('/v4/subscriptions', {
      method: 'POST',
      headers: headers(CHECKOUT, { 'X-Forwarded-For': '203.0.113.7', ...mapped }),
      body: JSON.stringify(checkoutSubscription()),
    });
    expect(sub.status).toBe(201);
    expect((await body<{ payment_url_link: string }>(sub)).payment_url_link).toMatch(/^http:\/\/localhost:18443\/pay\//);
  });

  it('--public-url still wins over the Host', async () => {
    const { app } = testApp({ publicUrl: 'https://sandbox.example.test' });
    const tx = await body<{ id: string; payment_url: string }>(await postTx(app, checkoutTx, CHECKOUT, { host: 'localhost:18443' }));
    expect(tx.payment_url).toBe(`https://sandbox.example.test/pay/${tx.id}`);
  });
});

describe('every status an operation can answer is in /openapi.json', () => {
  type Operation = { requestBody?: unknown; responses?: Record<string, unknown> };
  const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

  it('every operation declares 500, and 400 where it accepts a body', async () => {
    const { app } = testApp();
    const doc = await body<{ paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> }>(
      await app.request('/openapi.json'),
    );
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        operations += 1;
        expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toContain('500');
        if (op.requestBody !== undefined) expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toContain('400');
      }
    }
    expect(operations).toBeGreaterThan(20);
  });

  it('POST /_sandbox/transactions/{id}/settle with a malformed body answers 400, which it declares', async () => {
    const { app } = testApp();
    const tx = await body<{ id: string }>(
      await postTx(app, { amount: 500, currency: 'THB', return_url: 'https://m.example/r', payment_method: { type: 'card' } }, CHECKOUT),
    );
    const res = await app.request(`/_sandbox/transactions/${tx.id}/settle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(await body<ErrorBody>(res)).toMatchObject({ type: 'error', status: 400 });
    const doc = await body<{ paths: Record<string, { post?: Operation }> }>(await app.request('/openapi.json'));
    expect(Object.keys(doc.paths['/_sandbox/transactions/{id}/settle']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['400', '500']),
    );
  });
});
