/**
 * `POST /_sandbox/check-webhooks` refuses an `orders` list the battery cannot use with the 400
 * envelope, before it sends anything: each an external_identifier of 1 to 64 characters without
 * a comma, named once, at most a hundred, and only with a `state_url` to read them back.
 */
import { describe, expect, it } from 'vitest';
import { body, testApp } from '../../support/app.js';

interface Envelope {
  code: string;
  details: Array<{ pointer: string; message: string; location: string }>;
}

const url = 'http://127.0.0.1:9/webhooks';
const state_url = 'http://127.0.0.1:9/orders';

describe('POST /_sandbox/check-webhooks with orders', () => {
  it.each([
    ['an order named twice', { url, state_url, orders: ['order-1', 'order-1'] }, '/orders', /named twice/],
    ['an empty order', { url, state_url, orders: [''] }, '/orders', /1 to 64 characters/],
    ['an order over 64 characters', { url, state_url, orders: ['x'.repeat(65)] }, '/orders', /1 to 64 characters/],
    ['an order with a comma', { url, state_url, orders: ['a,b'] }, '/orders', /comma/],
    [
      'more than a hundred orders',
      { url, state_url, orders: Array.from({ length: 101 }, (_, i) => `o-${i}`) },
      '/orders',
      /at most 100 orders/,
    ],
    ['orders that are not a list', { url, state_url, orders: 'order-1,order-2' }, '/orders', /./],
    ['orders without a state_url', { url, orders: ['order-1'] }, '/orders', /needs state_url/],
  ])('refuses %s with the 400 envelope at its pointer', async (_what, request, pointer, message) => {
    const { app, lifecycle } = testApp();
    try {
      const res = await app.request('/_sandbox/check-webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      expect(res.status).toBe(400);
      const error = await body<Envelope>(res);
      expect(error.details[0]).toMatchObject({ pointer, location: 'body' });
      expect(error.details[0]!.message).toMatch(message);
    } finally {
      await lifecycle.close();
    }
  });
});
