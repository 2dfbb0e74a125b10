/**
 * `GET /_sandbox/payment-methods`: the catalogue as the control API serves it, through
 * `app.request()` and over a real loopback socket, checked against its zod schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_CHANNEL_CODES } from '../../../src/features/payment-methods/payment-methods.js';
import { paymentMethodsResponseSchema } from '../../../src/features/payment-methods/control.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { testApp } from '../../support/app.js';

let server: RunningServer;
let base: string;

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, ticker: false });
  base = server.url;
});

afterAll(() => server.stop());

describe('GET /_sandbox/payment-methods', () => {
  it('app.request: the groups with every channel code, valid against the schema', async () => {
    const res = await testApp().app.request('/_sandbox/payment-methods');
    expect(res.status).toBe(200);
    const body = paymentMethodsResponseSchema.parse(await res.json());
    expect(body.groups.flatMap((g) => g.channels.map((c) => c.code))).toEqual(PAYMENT_CHANNEL_CODES);
  });

  it('over a socket: JSON with PromptPay in THB, Pix in BRL, cards in any currency', async () => {
    const res = await fetch(`${base}/_sandbox/payment-methods`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = paymentMethodsResponseSchema.parse(await res.json());
    const channels = new Map(body.groups.flatMap((g) => g.channels.map((c) => [c.code, c] as const)));
    expect(channels.get('PROMPTPAY')).toMatchObject({ type: 'qr', currencies: ['THB'], country: 'TH', customer_step: true });
    expect(channels.get('PIX')).toMatchObject({ type: 'qr', currencies: ['BRL'], country: 'BR', customer_step: true });
    expect(channels.get('CARD')).toMatchObject({ type: 'card', currencies: 'any', country: null, customer_step: false });
    expect(body.groups.find((g) => g.id === 'chinese_wallets')).toMatchObject({ region: 'China', country: 'CN', type: 'wallet' });
  });
});
