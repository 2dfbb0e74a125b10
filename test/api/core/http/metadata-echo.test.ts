/**
 * `metadata` is echoed exactly as sent, in every answer that carries it: the create, the read,
 * the list, a subscription. Only a value holding a card number by shape is masked. A key that
 * looks like a security code keeps its value in the record; the request log leaves it out.
 */
import { describe, expect, it } from 'vitest';
import { body, directPayment, headers, testApp, type PageBody } from '../../../support/app.js';
import { createSubscription, directSubscription, getSubscription } from '../../../support/subscriptions.js';

/** Metadata whose keys look like security codes, with values no other part of the request holds. */
const CODE_LIKE = { cid: '8113', card_code: '7264', csc: '9157', cvc: '6342', cvv: '5028', securityCode: '4719' } as const;
const METADATA = { ...CODE_LIKE, order_ref: 'A-1001', note: 'gift wrap, please' };

describe('metadata is echoed exactly as sent', () => {
  it('a transaction: the create, the read and the list echo security-code-like keys with their values', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ metadata: METADATA })),
    });
    expect(res.status).toBe(201);
    const tx = await body<{ id: string; metadata: unknown }>(res);
    expect(tx.metadata).toEqual(METADATA);
    const read = await body<{ metadata: unknown }>(await app.request(`/v4/transactions/${tx.id}`, { headers: headers() }));
    expect(read.metadata).toEqual(METADATA);
    const list = await body<PageBody<{ id: string; metadata: unknown }>>(await app.request('/v4/transactions', { headers: headers() }));
    expect(list.items.find((item) => item.id === tx.id)?.metadata).toEqual(METADATA);
  });

  it('a subscription echoes them too', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, directSubscription({ metadata: METADATA }));
    expect(sub.metadata).toEqual(METADATA);
    expect((await getSubscription(app, sub.id)).metadata).toEqual(METADATA);
  });

  it('only a value holding a card number by shape is masked, under any key', async () => {
    const { app } = testApp();
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ metadata: { cvc: '4242_4242_4242_4242', note: 'card 4 2 4 2 4 2 4 2 4 2 4 2 4 2 4 2' } })),
    });
    expect((await body<{ metadata: unknown }>(res)).metadata).toEqual({ cvc: '•••• 4242', note: 'card •••• 4242' });
  });

  it('the request log keeps neither the values of security-code-like keys nor the card number', async () => {
    const { app } = testApp();
    const payload = JSON.stringify(directPayment({ metadata: METADATA, amount: -1 }));
    expect((await app.request('/v4/transactions', { method: 'POST', headers: headers(), body: payload })).status).toBe(400);
    const log = await (await app.request('/_sandbox/requests?limit=10')).text();
    expect(log).toContain('A-1001');
    for (const value of Object.values(CODE_LIKE)) expect(log).not.toContain(value);
  });
});
