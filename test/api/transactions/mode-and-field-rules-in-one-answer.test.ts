/**
 * One validation per request: the account's mode rules live in the body schema, so a body
 * that breaks field rules and mode rules gets every failure in one 400; the OpenAPI
 * document shows the schemas that validate (one per mode) and the configured restricted
 * channel. Through the app.
 */
import { describe, expect, it } from 'vitest';
import { directSubscription, postSubscription } from '../../support/subscriptions.js';
import { CHECKOUT, body, headers, testApp } from '../../support/app.js';

interface Failure {
  code: string;
  details: { type: string; pointer: string; location: string }[];
}

const pointers = (f: Failure): string[] => f.details.map((d) => `${d.type} ${d.pointer}`).sort();

describe('mode rules and field rules in one answer', () => {
  it('direct mode: a bad amount, no payment_method and no browser_info, all at once', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ amount: 'ten', currency: 'USD' }),
    });
    expect(res.status).toBe(400);
    expect(pointers(await body<Failure>(res))).toEqual(['missing /browser_info', 'missing /payment_method', 'type_error /amount']);
  });

  it('direct mode: a card without its number, no browser_info and a bad currency, all at once', async () => {
    const { app } = testApp();
    const payload = { amount: 100, currency: 'usd', payment_method: { type: 'card', expiration_date: '12/30', security_code: '123' } };
    const res = await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: JSON.stringify(payload) });
    expect(res.status).toBe(400);
    const failure = await body<Failure>(res);
    expect(failure.code).toBe('bad_request');
    expect(pointers(failure)).toEqual(['format_error /currency', 'missing /browser_info', 'missing /payment_method/number']);
  });

  it('checkout mode: a bad currency and no return_url, all at once', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(CHECKOUT),
      body: JSON.stringify({ amount: 100, currency: 'XYZ' }),
    });
    expect(pointers(await body<Failure>(res))).toEqual(['missing /return_url', 'value_error /currency']);
  });

  it('subscriptions: a wallet without its channel code next to field failures, all at once', async () => {
    const { app } = testApp();
    const res = await postSubscription(app, directSubscription({ currency: 'usd', payment_method: { type: 'wallet' } }));
    expect(pointers(await body<Failure>(res))).toEqual(['format_error /currency', 'missing /payment_method/payment_channel_code']);
  });

  it('a refund body is validated once too, and nothing is refunded', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions/00000000-0000-4000-8000-000000000000/refunds', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ amount: -1, reason: '' }),
    });
    expect(res.status).toBe(400);
    expect(pointers(await body<Failure>(res))).toEqual(['length_error /reason', 'value_error /amount']);
  });
});

describe('the OpenAPI document shows the schemas that validate', () => {
  type Schema = { anyOf?: { title: string; required: string[] }[]; description?: string };
  const docOf = async (options = {}) => {
    const { app } = testApp(options);
    return (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; parameters?: { name: string; in: string; required?: boolean }[] }>>;
      components: { schemas: Record<string, Schema> };
    };
  };
  const required = (s: Schema | undefined) => Object.fromEntries((s?.anyOf ?? []).map((v) => [v.title, v.required]));

  it('one create schema per mode, with the mode rules as required fields', async () => {
    const doc = await docOf();
    const tx = required(doc.components.schemas.TransactionCreate);
    expect(tx['Direct mode']).toEqual(expect.arrayContaining(['payment_method', 'browser_info']));
    expect(tx['Checkout mode']).toEqual(expect.arrayContaining(['return_url']));
    expect(tx['Checkout mode']).not.toContain('browser_info');
    const sub = required(doc.components.schemas.SubscriptionCreate);
    expect(sub['Direct mode']).toContain('browser_info');
    expect(sub['Checkout mode']).not.toContain('browser_info');
    const post = doc.paths['/subscriptions']!.post!;
    expect(post.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/SubscriptionCreate' } } },
    });
    expect(post.parameters).toContainEqual(expect.objectContaining({ name: 'x-forwarded-for', in: 'header', required: true }));
  });

  it('names the configured restricted channel', async () => {
    const doc = await docOf({ restrictedChannelCode: 'TRUEMONEY_LIMITED' });
    expect(JSON.stringify(doc.components.schemas.SubscriptionCreate)).toContain('TRUEMONEY_LIMITED');
  });
});
