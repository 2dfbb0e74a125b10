/**
 * Fixtures through the control API (`POST /_sandbox/fixtures`, app.request): objects created
 * through the API's own validation and services, `${name.field}` references, `then` steps,
 * and a bad document refused as a whole (checked up front, or rolled back) with the failing
 * fixture's name and pointer. Also the JSON Schema served and shipped, and the shipped examples.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RESTRICTED_CHANNEL_CODE } from '../../../src/core/config.js';
import { fixturesJsonSchema } from '../../../src/features/fixtures/schema.js';
import { CHECKOUT, DIRECT, directPayment, headers, testApp } from '../../support/app.js';
import { directSubscription } from '../../support/subscriptions.js';

type Json = Record<string, unknown>;
const root = fileURLToPath(new URL('../../..', import.meta.url));
const shipped = (file: string): Json => JSON.parse(readFileSync(`${root}fixtures/${file}`, 'utf8')) as Json;

let apps: ReturnType<typeof testApp>[] = [];
afterEach(async () => {
  for (const a of apps) await a.lifecycle.close();
  apps = [];
});
function app(options: Parameters<typeof testApp>[0] = {}) {
  const a = testApp(options);
  apps.push(a);
  return a;
}

async function post(a: ReturnType<typeof testApp>, document: unknown): Promise<{ status: number; body: Json }> {
  const res = await a.app.request('/_sandbox/fixtures', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Everything a document could have created: transactions, subscriptions, deliveries and the clock. */
async function state(a: ReturnType<typeof testApp>): Promise<Json> {
  const list = async (path: string, creds = DIRECT) =>
    ((await (await a.app.request(path, { headers: headers(creds) })).json()) as { items: Json[] }).items.length;
  const clock = (await (await a.app.request('/_sandbox/clock')).json()) as { offset_seconds: number };
  return {
    direct: await list('/v4/transactions'),
    checkout: await list('/v4/transactions', CHECKOUT),
    subscriptions: await list('/v4/subscriptions'),
    deliveries: await list('/_sandbox/deliveries'),
    buyers: a.features.accounts.service.buyers.count(DIRECT.account_id),
    offset: clock.offset_seconds,
  };
}

const tx = (name: string, body: Json = {}, extra: Json = {}): Json => ({
  name,
  account: 'direct',
  create: 'transaction',
  body: directPayment(body),
  ...extra,
});

describe('POST /_sandbox/fixtures', () => {
  it('creates each object through the API and answers each name with its object in the wire format', async () => {
    const a = app();
    const { status, body } = await post(a, {
      fixtures: [
        { name: 'jane', account: 'direct', create: 'buyer', body: { display_name: 'Jane Doe', external_identifier: 'buyer-jane' } },
        tx(
          'tx1',
          { amount: 4200, customer: { email: 'jane@example.com', name: '${jane.display_name}' }, metadata: { buyer: '${jane.id}' } },
          { then: 'settle' },
        ),
        { name: 'r1', account: 'direct', create: 'refund', body: { transaction_id: '${tx1.id}', amount: 1200, reason: 'partial' } },
      ],
    });
    expect(status).toBe(201);
    const tx1 = body.tx1 as Json;
    expect(tx1).toMatchObject({
      type: 'transaction',
      status: 'SUCCEEDED',
      amount: 4200,
      refunded_amount: 1200,
      metadata: { buyer: (body.jane as Json).id },
    });
    expect((tx1.customer as Json).name).toBe('Jane Doe');
    expect(body.r1).toMatchObject({ type: 'refund', transaction_id: tx1.id, amount: 1200 });
    // The same object the API answers.
    const got = (await (await a.app.request(`/v4/transactions/${String(tx1.id)}`, { headers: headers() })).json()) as Json;
    expect(got).toEqual(tx1);
    const buyers = (await (await a.app.request('/v4/buyers?external_identifier=buyer-jane', { headers: headers() })).json()) as {
      items: Json[];
    };
    expect(buyers.items).toEqual([body.jane]);
  });

  it("a whole-string reference keeps the value's type; one inside a longer string is interpolated; nested fields resolve", async () => {
    const a = app();
    const { status, body } = await post(a, {
      fixtures: [
        tx('tx1', { amount: 1234 }),
        tx('tx2', {
          amount: '${tx1.amount}',
          external_identifier: 'copy-of-${tx1.external_identifier}',
          description: '${tx1.payment_method.type}',
        }),
      ],
    });
    expect(status).toBe(201);
    expect(body.tx2).toMatchObject({ amount: 1234, external_identifier: 'copy-of-order-1001', description: 'card' });
  });

  it('then: settle / fail / advance:<seconds> run after the create (a subscription renewal that fails goes past_due)', async () => {
    const a = app();
    const { status, body } = await post(a, {
      fixtures: [
        tx('ok', {}, { then: 'settle' }),
        tx('ko', {}, { then: 'fail' }),
        {
          name: 'sub',
          account: 'direct',
          create: 'subscription',
          body: directSubscription({ plan: { name: 'renewal-fails', currency: 'USD', amount: 900, interval: 'day' } }),
          then: 'advance:86400',
        },
      ],
    });
    expect(status).toBe(201);
    expect((body.ok as Json).status).toBe('SUCCEEDED');
    expect((body.ko as Json).status).toBe('FAILED');
    expect((body.sub as Json).status).toBe('past_due');
    expect((await state(a)).offset).toBe(86400);
  });

  it('fires webhooks as the API does: a settled fixture queues its payment webhook', async () => {
    const a = app();
    const { body } = await post(a, { fixtures: [tx('paid', { notification_url: 'http://127.0.0.1:9/hooks' }, { then: 'settle' })] });
    const deliveries = (await (await a.app.request('/_sandbox/deliveries')).json()) as { items: Json[] };
    expect(deliveries.items.map((d) => d.resource_id)).toContain((body.paid as Json).id);
  });

  describe('a bad document is refused as a whole, nothing created, naming the fixture and a pointer', () => {
    const refusedWith = async (document: unknown, status: number, pointer: string, name: string | undefined, words: RegExp) => {
      const a = app();
      const before = await state(a);
      const res = await post(a, document);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ type: 'error', status });
      const details = res.body.details as Json[];
      expect(details[0]).toMatchObject({ pointer, location: 'body' });
      if (name !== undefined) expect(res.body.message).toContain(`fixture "${name}"`);
      expect(res.body.message).toContain(pointer);
      expect(`${String(res.body.message)} ${String(details[0]!.message)}`).toMatch(words);
      expect(await state(a)).toEqual(before);
    };

    it('a body the API refuses (checked before the first fixture is created)', () =>
      refusedWith(
        { fixtures: [tx('fine'), tx('bad', { amount: -5 })] },
        400,
        '/fixtures/1/body/amount',
        'bad',
        /amount|greater|>=|too small/i,
      ));

    it('a reference to a fixture that comes later', () =>
      refusedWith(
        { fixtures: [{ name: 'r', account: 'direct', create: 'refund', body: { transaction_id: '${later.id}' } }, tx('later')] },
        400,
        '/fixtures/0/body/transaction_id',
        'r',
        /created later/,
      ));

    it('a reference to a name no fixture has', () =>
      refusedWith(
        { fixtures: [tx('a1'), tx('a2', { description: 'see ${nobody.id}' })] },
        400,
        '/fixtures/1/body/description',
        'a2',
        /no earlier fixture/,
      ));

    it('an unknown account, a repeated name, settle on a refund, a bad then, a bad shape', async () => {
      await refusedWith({ fixtures: [{ ...tx('t'), account: 'acct_nope' }] }, 400, '/fixtures/0/account', 't', /no account/);
      await refusedWith({ fixtures: [tx('t'), tx('t')] }, 400, '/fixtures/1/name', 't', /already used/);
      await refusedWith(
        {
          fixtures: [
            tx('t', {}, { then: 'settle' }),
            { name: 'r', account: 'direct', create: 'refund', body: { transaction_id: '${t.id}' }, then: 'settle' },
          ],
        },
        400,
        '/fixtures/1/then',
        'r',
        /applies to a transaction/,
      );
      await refusedWith({ fixtures: [tx('t', {}, { then: 'advance:soon' })] }, 400, '/fixtures/0/then', 't', /settle, fail or advance/);
      await refusedWith(
        { fixtures: [{ name: 'x', account: 'direct', create: 'invoice', body: {} }] },
        400,
        '/fixtures/0/create',
        'x',
        /transaction, refund, subscription, buyer/,
      );
      await refusedWith({ fixtures: [] }, 400, '/fixtures', undefined, /at least one/);
    });

    it('a failure only the domain finds midway (a refund larger than the payment) rolls back what came before it', () =>
      refusedWith(
        {
          fixtures: [
            tx('t1', { amount: 1000, notification_url: 'http://127.0.0.1:9/hooks' }, { then: 'settle' }),
            { name: 'sub', account: 'direct', create: 'subscription', body: directSubscription() },
            { name: 'too_much', account: 'direct', create: 'refund', body: { transaction_id: '${t1.id}', amount: 5000 } },
          ],
        },
        400,
        '/fixtures/2/body/amount',
        'too_much',
        /refund|exceed|remain/i,
      ));

    it('settling a transaction a scenario rule already settled (card 4242) is refused at its then, and rolled back', () =>
      refusedWith(
        {
          fixtures: [
            tx('first'),
            tx(
              'auto',
              { payment_method: { type: 'card', number: '4242424242424242', expiration_date: '12/30', security_code: '123' } },
              { then: 'settle' },
            ),
          ],
        },
        409,
        '/fixtures/1/then',
        'auto',
        /SUCCEEDED|already|cannot/i,
      ));

    it('a reference to a field the object lacks', () =>
      refusedWith(
        { fixtures: [tx('t1'), tx('t2', { description: '${t1.no_such_field}' })] },
        400,
        '/fixtures/1/body/description',
        't2',
        /has no field no_such_field/,
      ));

    it('a webhook target the sandbox refuses', () =>
      refusedWith(
        { fixtures: [tx('t1', { notification_url: 'http://169.254.169.254/latest' })] },
        400,
        '/fixtures/0/body/notification_url',
        't1',
        /Webhook target refused/,
      ));
  });
});

describe('POST /_sandbox/fixtures: a document with advances is applied in pieces', () => {
  it('a failure after an advance keeps the fixtures before it and the moved clock, and the refusal names them', async () => {
    const a = app();
    const res = await post(a, {
      fixtures: [
        tx('t1', { amount: 1000, notification_url: 'http://127.0.0.1:9/hooks' }, { then: 'settle' }),
        { name: 'sub', account: 'direct', create: 'subscription', body: directSubscription(), then: 'advance:3600' },
        tx('t2', { external_identifier: 'rolled-back' }),
        { name: 'too_much', account: 'direct', create: 'refund', body: { transaction_id: '${t1.id}', amount: 5000 } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'error', status: 400, code: 'bad_request' });
    expect((res.body.details as Json[])[0]).toMatchObject({ pointer: '/fixtures/3/body/amount', location: 'body' });
    expect(String(res.body.message)).toMatch(
      /^Fixtures stopped, the fixtures applied before an advance of the clock stay \(t1, sub\), the rest was not created: request body: fixture "too_much" at \/fixtures\/3\/body\/amount: /,
    );
    // t1 and sub (its first payment, and the clock's hour) stay; t2, in the failing piece, rolled back with it.
    expect(await state(a)).toMatchObject({ direct: 2, subscriptions: 1, offset: 3600 });
    const listed = (await (await a.app.request('/v4/transactions', { headers: headers(DIRECT) })).json()) as { items: Json[] };
    expect(listed.items.map((t) => t.external_identifier)).not.toContain('rolled-back');
  });

  it('an advance too long for one advance is refused with its own piece: the pieces before it stay', async () => {
    const a = app();
    const daily = (i: number, extra: Json = {}): Json => ({
      name: `sub${i}`,
      account: 'direct',
      create: 'subscription',
      body: directSubscription({
        external_identifier: `sub-${i}`,
        plan: { name: `daily-${i}`, currency: 'USD', amount: 100, interval: 'day' },
      }),
      ...extra,
    });
    const subs = Array.from({ length: 30 }, (_, i) => daily(i, i === 29 ? { then: `advance:${10 * 365 * 86400}` } : {}));
    const res = await post(a, { fixtures: [tx('t1', {}, { then: 'advance:60' }), ...subs] });
    expect(res.status).toBe(400);
    expect((res.body.details as Json[])[0]).toMatchObject({ pointer: '/fixtures/30/then', location: 'body' });
    expect(String(res.body.message)).toMatch(
      /stay \(t1\), the rest was not created: request body: fixture "sub29" at \/fixtures\/30\/then: This advance would run about \d+ steps/,
    );
    expect(await state(a)).toMatchObject({ direct: 1, subscriptions: 0, offset: 60 });
  });

  it('advances that together would take the clock past 9999-12-31T23:59:59Z are refused before anything is applied', async () => {
    const a = app();
    const before = await state(a);
    // 800 steps of 10 years each: the 798th would pass the bound (about 7,974 years ahead of now).
    const fixtures = Array.from({ length: 800 }, (_, i) => ({
      name: `b${i}`,
      account: 'direct',
      create: 'buyer',
      body: { external_identifier: `far-${i}` },
      then: 'advance:316224000',
    }));
    const res = await post(a, { fixtures });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'error', code: 'bad_request', status: 400 });
    const firstPast = Math.floor((Date.UTC(9999, 11, 31, 23, 59, 59) - Date.now()) / 316_224_000_000);
    expect((res.body.details as Json[])[0]).toMatchObject({ pointer: `/fixtures/${firstPast}/then`, location: 'body' });
    expect(String(res.body.message)).toMatch(/9999-12-31T23:59:59Z.*Nothing moved/);
    expect(await state(a)).toEqual(before);
  });
});

describe('the fixtures JSON Schema', () => {
  it('is served at GET /_sandbox/fixtures/schema.json and shipped, the same, as fixtures/fixtures.schema.json', async () => {
    const res = await app().app.request('/_sandbox/fixtures/schema.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    const served = (await res.json()) as Json;
    expect(served).toEqual(fixturesJsonSchema(DEFAULT_RESTRICTED_CHANNEL_CODE));
    // Regenerate with: npx tsx -e "…" (see README "Fixtures"): the shipped file must follow the code.
    expect(shipped('fixtures.schema.json')).toEqual(served);
  });

  it("describes each kind with the API's body (editors complete from it) and the shipped examples point to it", () => {
    const schema = shipped('fixtures.schema.json');
    const text = JSON.stringify(schema);
    for (const word of [
      '"transaction"',
      '"refund"',
      '"subscription"',
      '"buyer"',
      'payment_method',
      'trial_period_days',
      'transaction_id',
      'advance:<seconds>',
    ])
      expect(text).toContain(word);
    for (const file of ['shop.json', 'subscriptions.json']) expect(shipped(file).$schema).toBe('./fixtures.schema.json');
  });
});

describe('the shipped fixtures', () => {
  it('fixtures/shop.json: buyers, paid orders, one partly refunded, a declined one, a checkout order', async () => {
    const a = app();
    const { status, body } = await post(a, shipped('shop.json'));
    expect(status).toBe(201);
    expect(body.jane).toMatchObject({ type: 'buyer', display_name: 'Jane Doe' });
    expect(body.order1).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 0 });
    expect(body.order2).toMatchObject({ status: 'SUCCEEDED', amount: 1999, refunded_amount: 500 });
    expect(body.order2_refund).toMatchObject({ type: 'refund', amount: 500, transaction_id: (body.order2 as Json).id });
    expect(body.order3_declined).toMatchObject({ status: 'FAILED' });
    expect(body.checkout_order).toMatchObject({ status: 'SUCCEEDED', merchant_account_id: CHECKOUT.account_id });
  });

  it('fixtures/subscriptions.json: a subscription in each state (active, trialing, past_due, cancelled, failed)', async () => {
    const a = app();
    const { status, body } = await post(a, shipped('subscriptions.json'));
    expect(status).toBe(201);
    const statuses = Object.fromEntries(Object.entries(body).map(([name, sub]) => [name, (sub as Json).status]));
    expect(statuses).toEqual({
      sub_cancelled: 'cancelled',
      sub_past_due: 'past_due',
      sub_active: 'active',
      sub_trialing: 'active',
      sub_failed: 'failed',
    });
    const trialing = body.sub_trialing as Json;
    expect(Date.parse(String(trialing.trial_end))).toBeGreaterThan(a.core.clock.nowMs());
    expect(Date.parse(String((body.sub_active as Json).trial_end ?? 0))).toBeLessThanOrEqual(a.core.clock.nowMs());
  });
});
