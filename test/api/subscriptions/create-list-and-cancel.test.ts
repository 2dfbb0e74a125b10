/**
 * POST/GET /v4/subscriptions and cancel, over HTTP without a socket: the exact Subscription
 * object, scopes, idempotency with the lowercase header, duplicates, pages, and the control
 * API the panel uses. Validation: create-validation.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { subscriptionResponseSchema } from '../../../src/features/subscriptions/subscription-response-schema.js';
import { body, headers, jwt, testApp } from '../../support/app.js';
import {
  CHECKOUT,
  DIRECT,
  checkoutSubscription,
  createSubscription,
  directSubscription,
  getSubscription,
  postSubscription,
  withCharges,
  type Json,
} from '../../support/subscriptions.js';
import { failure } from '../../support/subscription-failures.js';

const SPEC_KEYS = [
  'id',
  'object',
  'external_identifier',
  'amount',
  'currency',
  'created',
  'customer',
  'plan',
  'payment_method',
  'status',
  'current_period_start',
  'current_period_end',
  'next_billing_date',
  'trial_start',
  'trial_end',
  'metadata',
  'payment_url_link',
];
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;

describe('POST /v4/subscriptions: the Subscription object', () => {
  it('answers 201 with exactly the spec fields; the first period is charged at once (active)', async () => {
    const { app } = testApp();
    const res = await postSubscription(app, directSubscription());
    expect(res.status).toBe(201);
    const sub = await body(res);
    expect(Object.keys(sub)).toEqual(SPEC_KEYS);
    expect(subscriptionResponseSchema.strict().safeParse(sub).success).toBe(true);
    expect(sub).toMatchObject({
      object: 'subscription',
      external_identifier: 'sub-0001',
      amount: 1000,
      currency: 'USD',
      customer: { email_address: 'jane@example.com', first_name: 'Jane', last_name: 'Doe', phone_number: '+66812345678' },
      plan: { name: 'Gold', currency: 'USD', amount: 900, interval: 'month', interval_time: 1, payment_attempts: 3 },
      payment_method: { type: 'card', card: { last4: '1111', expiration_date: '12/30' } },
      status: 'active',
      trial_start: null,
      trial_end: null,
      metadata: { crm_id: 'C-42' },
      payment_url_link: null,
    });
    expect(sub.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const key of ['created', 'current_period_start', 'current_period_end']) expect(sub[key]).toMatch(TIMESTAMP);
    expect(sub.current_period_start).toBe(sub.created);
    expect(sub.next_billing_date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(sub.next_billing_date).toBe(String(sub.current_period_end).slice(0, 10));
    // The card number and security code never come back.
    expect(JSON.stringify(sub)).not.toContain('4111111111111111');
    expect(JSON.stringify(sub)).not.toContain('"123"');
    expect(await getSubscription(app, sub.id)).toEqual(sub);
  });

  it('never stores the card number or security code: the masked card is on file for renewals', async () => {
    const { app, features, db } = testApp();
    const sub = await createSubscription(app, directSubscription());
    await features.sandbox.service.advanceClock(40 * 24 * 3600); // a renewal charges the card on file
    const dump = JSON.stringify([db.prepare('SELECT * FROM subscriptions').all(), db.prepare('SELECT * FROM transactions').all()]);
    expect(dump).not.toContain('4111111111111111');
    expect(dump).not.toContain('security_code');
    const { charges } = await withCharges(app, sub.id);
    expect(charges).toHaveLength(2);
    expect(charges.map((c) => [c.status, (c.payment_method as { card: { last4: string } }).card.last4])).toEqual([
      ['SUCCEEDED', '1111'],
      ['SUCCEEDED', '1111'],
    ]);
  });

  it('the first charge is a transaction of the subscription, its webhook aimed at payment_method.webhooks_url', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription());
    const { charges } = await withCharges(app, sub.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      status: 'SUCCEEDED',
      amount: 1000,
      currency: 'USD',
      subscription_id: sub.id,
      notification_url: 'http://127.0.0.1:9/hooks',
      external_identifier: 'sub-0001.period-0',
      customer: { email: 'jane@example.com', name: 'Jane Doe' },
    });
    const tx = await app.request(`/v4/transactions/${String(charges[0]!.id)}`, { headers: headers() });
    expect((await body(tx)).subscription_id).toBe(sub.id);
  });

  it('checkout accounts get payment_url_link: the payment page of the first charge', async () => {
    const { app, core } = testApp();
    const sub = await createSubscription(app, checkoutSubscription(), CHECKOUT);
    const { charges } = await withCharges(app, sub.id, CHECKOUT);
    expect(sub.payment_url_link).toBe(`${core.baseUrl}/pay/${String(charges[0]!.id)}`);
    expect(charges[0]!.payment_url).toBe(sub.payment_url_link);
    expect(charges[0]!.return_url).toBe('https://merchant.example/done');
    expect(sub.payment_method).toEqual({ type: 'card' });
  });

  it('metadata is left out when not sent', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription({ metadata: undefined }));
    expect('metadata' in sub).toBe(false);
  });
});

describe('POST /v4/subscriptions: auth, idempotency, duplicates', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const bearer = (scopes: string[]) => ({
    authorization: `Bearer ${jwt({ scopes, iat: now(), exp: now() + 300 })}`,
    'x-merchant-account-id': DIRECT.account_id,
    'content-type': 'application/json',
    'x-forwarded-for': '203.0.113.7',
  });

  it('needs the subscriptions.write scope; reads need subscriptions.read', async () => {
    const { app } = testApp();
    const post = (scopes: string[]) =>
      app.request('/v4/subscriptions', { method: 'POST', headers: bearer(scopes), body: JSON.stringify(directSubscription()) });
    expect((await post(['subscriptions.read', 'transactions.write'])).status).toBe(403);
    const created = await post(['subscriptions.write']);
    expect(created.status).toBe(201);
    const { id } = await body(created);
    const get = (scopes: string[]) => app.request(`/v4/subscriptions/${String(id)}`, { headers: bearer(scopes) });
    expect((await get(['transactions.read'])).status).toBe(403);
    expect((await get(['subscriptions.read'])).status).toBe(200);
    expect((await get(['*.read'])).status).toBe(200);
    const cancel = (scopes: string[]) => app.request(`/v4/subscriptions/${String(id)}/cancel`, { method: 'POST', headers: bearer(scopes) });
    expect((await cancel(['subscriptions.read'])).status).toBe(403);
    expect((await cancel(['subscriptions.write'])).status).toBe(200);
  });

  it('the lowercase idempotency-key header replays the first answer and creates one subscription', async () => {
    const { app } = testApp();
    const first = await postSubscription(app, directSubscription(), DIRECT, { 'idempotency-key': 'sub-key-1' });
    expect(first.status).toBe(201);
    const text = await first.text();
    const again = await postSubscription(app, directSubscription(), DIRECT, { 'idempotency-key': 'sub-key-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(text);
    const other = await postSubscription(app, directSubscription({ amount: 2000 }), DIRECT, { 'idempotency-key': 'sub-key-1' });
    expect(other.status).toBe(400);
    const list = await body<{ items: unknown[] }>(await app.request('/v4/subscriptions', { headers: headers() }));
    expect(list.items).toHaveLength(1);
    const { charges } = await withCharges(app, JSON.parse(text).id);
    expect(charges).toHaveLength(1);
  });

  it('a second subscription with the same external_identifier → 409 duplicate_record with resource_id', async () => {
    const { app } = testApp();
    const first = await createSubscription(app, directSubscription());
    const res = await postSubscription(app, directSubscription({ amount: 5000 }));
    expect(res.status).toBe(409);
    expect(await body(res)).toMatchObject({ type: 'error', code: 'duplicate_record', status: 409, resource_id: first.id });
    // Another account may use the same reference.
    expect((await postSubscription(app, checkoutSubscription(), CHECKOUT)).status).toBe(201);
  });
});

describe('GET /v4/subscriptions and cancel', () => {
  it("another account's subscription is not found", async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription());
    const res = await app.request(`/v4/subscriptions/${String(sub.id)}`, { headers: headers(CHECKOUT) });
    expect(res.status).toBe(404);
    expect((await body(res)).code).toBe('not_found');
  });

  it('lists newest first in cursor pages', async () => {
    const { app } = testApp();
    const ids: unknown[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createSubscription(app, directSubscription({ external_identifier: `sub-${i}` }))).id);
    const page1 = await body<{ items: Json[]; limit: number; next_cursor: string | null; previous_cursor: string | null }>(
      await app.request('/v4/subscriptions?limit=2', { headers: headers() }),
    );
    expect(page1.items.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    expect(page1).toMatchObject({ limit: 2, previous_cursor: null });
    expect(page1.items[0]!.object).toBe('subscription');
    const page2 = await body<{ items: Json[]; next_cursor: string | null; previous_cursor: string | null }>(
      await app.request(`/v4/subscriptions?limit=2&cursor=${page1.next_cursor!}`, { headers: headers() }),
    );
    expect(page2.items.map((s) => s.id)).toEqual([ids[0]]);
    expect(page2.next_cursor).toBeNull();
    const back = await body<{ items: Json[] }>(
      await app.request(`/v4/subscriptions?limit=2&cursor=${page2.previous_cursor!}`, { headers: headers() }),
    );
    expect(back.items.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    const bad = await failure(await app.request('/v4/subscriptions?limit=0', { headers: headers() }));
    expect(bad.details[0]).toMatchObject({ pointer: '/limit', location: 'query' });
  });

  it('cancel: 200 cancelled, no further charges; a second cancel is 409 invalid_state', async () => {
    const { app, features } = testApp();
    const sub = await createSubscription(app, directSubscription());
    const res = await app.request(`/v4/subscriptions/${String(sub.id)}/cancel`, { method: 'POST', headers: headers() });
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ id: sub.id, object: 'subscription', status: 'cancelled' });
    await features.sandbox.service.advanceClock(90 * 86_400);
    expect((await withCharges(app, sub.id)).charges).toHaveLength(1);
    const again = await app.request(`/v4/subscriptions/${String(sub.id)}/cancel`, { method: 'POST', headers: headers() });
    expect(again.status).toBe(409);
    expect((await body(again)).code).toBe('invalid_state');
  });
});

describe('control API for the panel', () => {
  it('GET /_sandbox/subscriptions: pages of Subscription objects with their charges, per account', async () => {
    const { app } = testApp();
    const a = await createSubscription(app, directSubscription());
    const b = await createSubscription(app, checkoutSubscription(), CHECKOUT);
    const direct = await body<{ items: (Json & { charges: Json[] })[]; limit: number; next_cursor: null }>(
      await app.request(`/_sandbox/subscriptions?account_id=${DIRECT.account_id}`),
    );
    expect(direct.items.map((s) => s.id)).toEqual([a.id]);
    const { charges, allowed_actions, next_charge_at, ...subscription } = direct.items[0]!;
    expect(subscription).toEqual(a);
    expect(allowed_actions).toEqual(['cancel']);
    expect(next_charge_at).toEqual(expect.any(String));
    expect(charges).toEqual([expect.objectContaining({ type: 'transaction', subscription_id: a.id, status: 'SUCCEEDED' })]);
    const all = await body<{ items: Json[] }>(await app.request('/_sandbox/subscriptions?limit=1'));
    expect(all.items.map((s) => s.id)).toEqual([b.id]);
    expect((await app.request('/_sandbox/subscriptions?account_id=acc_nope')).status).toBe(404);
  });

  it('POST /_sandbox/subscriptions/{id}/cancel cancels and answers the subscription with its charges', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription());
    const res = await app.request(`/_sandbox/subscriptions/${String(sub.id)}/cancel`, { method: 'POST' });
    expect(res.status).toBe(200);
    const json = await body<Json & { charges: Json[] }>(res);
    expect(json).toMatchObject({ id: sub.id, status: 'cancelled' });
    expect(json.charges).toHaveLength(1);
    expect((await app.request(`/_sandbox/subscriptions/${String(sub.id)}/cancel`, { method: 'POST' })).status).toBe(409);
    expect((await app.request('/_sandbox/subscriptions/nope/cancel', { method: 'POST' })).status).toBe(404);
  });

  it('emits subscription.created and subscription.updated on the change feed', async () => {
    const { app, core } = testApp();
    const events: { type: string; data: unknown }[] = [];
    core.events.subscribe((e) => events.push({ type: e.type, data: e.data }));
    const sub = await createSubscription(app, directSubscription());
    await app.request(`/v4/subscriptions/${String(sub.id)}/cancel`, { method: 'POST', headers: headers() });
    await Promise.resolve();
    const mine = events.filter((e) => e.type.startsWith('subscription.'));
    expect(mine[0]).toEqual({ type: 'subscription.created', data: { id: sub.id, status: 'active' } });
    expect(mine.at(-1)).toEqual({ type: 'subscription.updated', data: { id: sub.id, status: 'cancelled' } });
  });
});
