/**
 * Payment methods enforced and the customer's step, through the app (webhooks reach an in-memory receiver):
 * the catalogue on POST /v4/transactions and /v4/subscriptions, direct-mode QR, wallet and
 * banking-app payments that wait with a payment_url (and the EMVCo payload for PromptPay and
 * Pix), checkout mode keeping the channel, the 24-hour link expiry on the sandbox clock,
 * expired cards, security-code length by scheme, checkout mode refusing card data (PCI),
 * spec-shaped subscriptions with the default test card, first charges that wait for the
 * customer, and a card on file that expires in month 4.
 */
import { describe, expect, it } from 'vitest';
import { decodePayload } from '../../support/emvco-decoder.js';
import { CHECKOUT, DIRECT, body, directPayment, headers, testApp } from '../../support/app.js';
import { appWithReceiver } from '../../support/memory-receiver.js';
import {
  DAY,
  advanceTo,
  checkoutSubscription,
  directSubscription,
  plusMonths,
  postSubscription,
  withCharges,
  type App,
  type Json,
} from '../../support/subscriptions.js';

type Detail = { type: string; pointer: string; message: string; location: string };

const postTx = async (app: App, payload: Json, creds = DIRECT) =>
  app.request('/v4/transactions', { method: 'POST', headers: headers(creds), body: JSON.stringify(payload) });
const controlTx = async (app: App, id: unknown) => body(await app.request(`/_sandbox/transactions/${String(id)}`));
const getSub = async (app: App, id: unknown, creds = DIRECT) =>
  body(await app.request(`/v4/subscriptions/${String(id)}`, { headers: headers(creds) }));
const paymentStatus = (hook: { body: unknown }) => (hook.body as { payment_data: { payment_status: string } }).payment_data.payment_status;

/** MM/YY of the month `months` after the sandbox clock's (negative: before). */
function expiryIn(nowMs: number, months: number): string {
  const d = new Date(nowMs);
  const at = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  return `${String(at.getUTCMonth() + 1).padStart(2, '0')}/${String(at.getUTCFullYear() % 100).padStart(2, '0')}`;
}

/** A direct-mode payment with `channel` (type from the catalogue's kind) in `currency`. */
function channelPayment(channel: string, currency: string, type = 'wallet'): Json {
  return directPayment({ currency, payment_method: { type, payment_channel_code: channel } });
}

describe('the catalogue on POST /v4/transactions', () => {
  // Each group of the spec: a valid code in a currency it takes, and one it does not take.
  const groups: [string, string, string, string | null][] = [
    ['CARD', 'card', 'JPY', null],
    ['PROMPTPAY', 'qr', 'THB', 'USD'],
    ['TRUEMONEY', 'wallet', 'THB', 'EUR'],
    ['KPLUS', 'mobile_banking', 'THB', 'SGD'],
    ['PIX', 'qr', 'BRL', 'THB'],
    ['ALIPAY', 'wallet', 'CNY', 'USD'],
  ];

  it.each(groups)('%s (%s): accepted in %s, refused in another currency', async (code, type, good, bad) => {
    const { app } = testApp();
    const card = code === 'CARD' ? { number: '4111111111111111', expiration_date: '12/30', security_code: '123' } : {};
    const ok = await postTx(app, directPayment({ currency: good, payment_method: { type, payment_channel_code: code, ...card } }));
    expect(ok.status).toBe(201);
    if (bad === null) return;
    const res = await postTx(app, directPayment({ currency: bad, payment_method: { type, payment_channel_code: code } }));
    expect(res.status).toBe(400);
    const { details } = await body<{ details: Detail[] }>(res);
    expect(details).toEqual([
      expect.objectContaining({ pointer: '/currency', type: 'value_error', location: 'body', message: expect.stringContaining(good) }),
    ]);
  });

  it('an unknown code (codes are exact) is a 400 listing every valid code, in one answer with the other failures', async () => {
    const { app } = testApp();
    for (const creds of [DIRECT, CHECKOUT]) {
      const payload =
        creds === DIRECT
          ? channelPayment('promptpay', 'THB', 'qr')
          : {
              amount: 100,
              currency: 'THB',
              return_url: 'https://m.example/r',
              payment_method: { type: 'qr', payment_channel_code: 'promptpay' },
            };
      const res = await postTx(app, { ...payload, amount: -1 }, creds);
      expect(res.status).toBe(400);
      const { details } = await body<{ details: Detail[] }>(res);
      expect(details.map((d) => d.pointer).sort()).toEqual(['/amount', '/payment_method/payment_channel_code']);
      const unknown = details.find((d) => d.pointer === '/payment_method/payment_channel_code')!;
      expect(unknown.type).toBe('enum_error');
      for (const code of [
        'CARD',
        'PROMPTPAY',
        'TRUEMONEY',
        'SHOPEEPAY',
        'LINEPAY',
        'KPLUS',
        'SCB_EASY',
        'KRUNGTHAI_NEXT',
        'BUALUANG_MBANKING',
        'KRUNGSRI_KMA',
        'PIX',
        'ALIPAY',
        'WECHATPAY',
      ]) {
        expect(unknown.message).toContain(code);
      }
    }
  });

  it('on POST /v4/subscriptions too: an unknown code and a currency the channel does not take', async () => {
    const { app } = testApp();
    const unknown = await postSubscription(app, directSubscription({ payment_method: { type: 'wallet', payment_channel_code: 'PAYPAL' } }));
    expect(unknown.status).toBe(400);
    expect((await body<{ details: Detail[] }>(unknown)).details).toEqual([
      expect.objectContaining({ pointer: '/payment_method/payment_channel_code', type: 'enum_error' }),
    ]);
    const wrong = await postSubscription(
      app,
      checkoutSubscription({ payment_method: { type: 'qr', payment_channel_code: 'PIX' } }),
      CHECKOUT,
    );
    expect(wrong.status).toBe(400);
    expect((await body<{ details: Detail[] }>(wrong)).details).toEqual([
      expect.objectContaining({ pointer: '/currency', message: expect.stringContaining('BRL') }),
    ]);
  });
});

describe("direct-mode payments that need the customer's step", () => {
  it('PromptPay and Pix stay PENDING with a payment_url and a valid EMVCo payload in payment_method.qr_payload', async () => {
    const { app, core } = testApp();
    for (const [code, currency, gui] of [
      ['PROMPTPAY', 'THB', 'A000000677010111'],
      ['PIX', 'BRL', 'br.gov.bcb.pix'],
    ] as const) {
      const res = await postTx(app, channelPayment(code, currency, 'qr'));
      expect(res.status).toBe(201);
      const tx = await body<{ id: string; status: string; payment_url: string; payment_method: { qr_payload: string } }>(res);
      expect(tx.status).toBe('PENDING');
      expect(tx.payment_url).toBe(`${core.baseUrl}/pay/${tx.id}`);
      const decoded = decodePayload(tx.payment_method.qr_payload);
      expect(decoded.crc.stated).toBe(decoded.crc.computed);
      expect(decoded.fields.get('54')).toBe('10.50');
      expect(tx.payment_method.qr_payload).toContain(gui);
      // The page shows the same payload.
      const page = await (await app.request(`/pay/${tx.id}`)).text();
      expect(page).toContain(tx.payment_method.qr_payload);
    }
  });

  it('wallet and banking-app payments wait with a payment_url (no QR); a direct card payment has none', async () => {
    const { app } = testApp();
    for (const [code, type] of [
      ['TRUEMONEY', 'wallet'],
      ['SCB_EASY', 'mobile_banking'],
    ]) {
      const tx = await body<Json>(await postTx(app, channelPayment(code!, 'THB', type)));
      expect(tx).toMatchObject({ status: 'PENDING', payment_method: { type, payment_channel_code: code } });
      expect(tx.payment_url).toMatch(/\/pay\//);
      expect((tx.payment_method as Json).qr_payload).toBeUndefined();
    }
    const card = await body<Json>(await postTx(app, directPayment()));
    expect(card.payment_url).toBeNull();
    expect(card.decline_reason).toBeNull();
  });

  it('checkout mode keeps the requested channel, so the page acts it out (a QR, not the card form)', async () => {
    const { app } = testApp();
    const res = await postTx(
      app,
      { amount: 2500, currency: 'BRL', return_url: 'https://m.example/r', payment_method: { type: 'qr', payment_channel_code: 'PIX' } },
      CHECKOUT,
    );
    expect(res.status).toBe(201);
    const tx = await body<{ id: string; payment_method: { payment_channel_code: string; qr_payload: string } }>(res);
    expect(tx.payment_method.payment_channel_code).toBe('PIX');
    const page = await (await app.request(`/pay/${tx.id}`)).text();
    expect(page).toContain(tx.payment_method.qr_payload);
    expect(page).not.toContain('Card number');
  });
});

describe('the payment link expires after 24 hours on the sandbox clock', () => {
  it('an unpaid link becomes FAILED with its webhook when the clock passes 24 h, without anyone opening the page', async () => {
    const { app, features, hooks } = appWithReceiver();
    const tx = await body<{ id: string }>(
      await postTx(app, { ...channelPayment('KPLUS', 'THB', 'mobile_banking'), notification_url: hooks.url }),
    );
    await features.sandbox.service.advanceClock(DAY - 1);
    expect((await controlTx(app, tx.id)).status).toBe('PENDING');
    expect(hooks.received).toHaveLength(0);
    await features.sandbox.service.advanceClock(1);
    expect((await controlTx(app, tx.id)).status).toBe('FAILED');
    const [hook] = await hooks.waitFor(1);
    expect(paymentStatus(hook!)).toBe('FAILED');
    expect((hook!.body as Json).ll_transaction_id).toBe(tx.id);
    // The page then says so and cannot be paid.
    expect((await app.request(`/pay/${tx.id}/pay`, { method: 'POST' })).status).toBe(410);
  });

  it('a paid link is not expired later, and a direct card payment never expires', async () => {
    const { app, features } = testApp();
    const paid = await body<{ id: string }>(await postTx(app, channelPayment('TRUEMONEY', 'THB')));
    const card = await body<{ id: string }>(await postTx(app, directPayment()));
    expect((await app.request(`/pay/${paid.id}/pay`, { method: 'POST' })).status).toBe(200);
    await features.sandbox.service.advanceClock(2 * DAY);
    expect((await controlTx(app, paid.id)).status).toBe('SUCCEEDED');
    expect((await controlTx(app, card.id)).status).toBe('PENDING');
  });
});

describe('cards', () => {
  it('a card expired before the sandbox clock month is created FAILED with decline_reason expired_card, and its FAILED webhook', async () => {
    const { app, core, hooks } = appWithReceiver();
    const expired = expiryIn(core.clock.nowMs(), -1);
    const res = await postTx(
      app,
      directPayment({
        notification_url: hooks.url,
        payment_method: { type: 'card', number: '4111111111111111', expiration_date: expired, security_code: '123' },
      }),
    );
    expect(res.status).toBe(201);
    const tx = await body<Json>(res);
    expect(tx).toMatchObject({ status: 'FAILED', decline_reason: 'expired_card', payment_url: null });
    const [hook] = await hooks.waitFor(1);
    expect(paymentStatus(hook!)).toBe('FAILED');
    // The spec's webhook body has no room for a reason: none is invented.
    expect(JSON.stringify(hook!.body)).not.toContain('expired_card');
    // This month's expiry is still good.
    const current = await body<Json>(
      await postTx(
        app,
        directPayment({
          payment_method: {
            type: 'card',
            number: '4111111111111111',
            expiration_date: expiryIn(core.clock.nowMs(), 0),
            security_code: '123',
          },
        }),
      ),
    );
    expect(current.decline_reason).toBeNull();
  });

  it('the security code is 4 digits for American Express and 3 for other schemes (400 otherwise)', async () => {
    const { app } = testApp();
    const card = (number: string, security_code: string) =>
      directPayment({ payment_method: { type: 'card', number, expiration_date: '12/30', security_code } });
    for (const [number, code] of [
      ['4111111111111111', '1234'],
      ['378282246310005', '123'],
      ['5555555555554444', '1234'],
    ]) {
      const res = await postTx(app, card(number!, code!));
      expect(res.status).toBe(400);
      expect((await body<{ details: Detail[] }>(res)).details).toEqual([
        expect.objectContaining({ pointer: '/payment_method/security_code', location: 'body' }),
      ]);
    }
    expect((await postTx(app, card('378282246310005', '1234'))).status).toBe(201);
    const sub = await postSubscription(
      app,
      directSubscription({ payment_method: { type: 'card', number: '378282246310005', expiration_date: '12/30', security_code: '123' } }),
    );
    expect(sub.status).toBe(400);
  });

  it('checkout-mode accounts refuse number and security_code with a 400 that says why (PCI)', async () => {
    const { app } = testApp();
    const tx = await postTx(
      app,
      {
        amount: 100,
        currency: 'USD',
        return_url: 'https://m.example/r',
        payment_method: { type: 'card', number: '4111111111111111', security_code: '123' },
      },
      CHECKOUT,
    );
    expect(tx.status).toBe(400);
    const { details } = await body<{ details: Detail[] }>(tx);
    expect(details.map((d) => d.pointer)).toEqual(['/payment_method/number', '/payment_method/security_code']);
    for (const d of details) expect(d.message).toMatch(/payment page.*PCI/);
    const sub = await postSubscription(
      app,
      checkoutSubscription({
        payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
      }),
      CHECKOUT,
    );
    expect(sub.status).toBe(400);
    expect((await body<{ details: Detail[] }>(sub)).details[0]!.message).toContain('PCI');
  });
});

/** The spec's payment_method fields only. */
const SPEC_METHOD = {
  type: 'card',
  payment_channel_code: 'CARD',
  redirect_url: 'https://merchant.example/done',
  webhooks_url: 'http://127.0.0.1:9/hooks',
};

describe('subscriptions as docs/subscriptions.md describes them', () => {
  it('a spec-shaped direct body charges the default test card: 201 active, card.last4 4242, expiry two years ahead', async () => {
    const { app, core } = testApp();
    const res = await postSubscription(app, directSubscription({ payment_method: SPEC_METHOD }));
    expect(res.status).toBe(201);
    const sub = await body<Json>(res);
    expect(sub).toMatchObject({
      status: 'active',
      payment_url_link: null,
      payment_method: { type: 'card', card: { last4: '4242', expiration_date: expiryIn(core.clock.nowMs(), 24) } },
    });
    const { charges } = await withCharges(app, sub.id);
    expect(charges.map((c) => c.status)).toEqual(['SUCCEEDED']);
  });

  it('a spec-shaped checkout body: active with payment_url_link, first charge PENDING; paid on the page -> active, one SUCCEEDED webhook at webhooks_url', async () => {
    const { app, hooks } = appWithReceiver();
    const res = await postSubscription(
      app,
      checkoutSubscription({ payment_method: { ...SPEC_METHOD, webhooks_url: hooks.url } }),
      CHECKOUT,
    );
    expect(res.status).toBe(201);
    const sub = await body<Json>(res);
    const { charges } = await withCharges(app, sub.id, CHECKOUT);
    expect(charges.map((c) => c.status)).toEqual(['PENDING']);
    expect(sub).toMatchObject({ status: 'active', payment_url_link: charges[0]!.payment_url });
    expect(hooks.received).toHaveLength(0);
    // The customer pays with a card on the page.
    const form = new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12/30', security_code: '123', holder_name: 'Jane' });
    const paid = await app.request(`/pay/${String(charges[0]!.id)}/pay`, {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('https://merchant.example/done');
    expect((await getSub(app, sub.id, CHECKOUT)).status).toBe('active');
    const [hook] = await hooks.waitFor(1);
    expect(paymentStatus(hook!)).toBe('SUCCEEDED');
    expect(hook!.verified).toBe(true);
    expect(hooks.received).toHaveLength(1);
  });

  it('checkout: the customer cancels on the page -> failed; the link expires unpaid -> failed', async () => {
    const { app, core, features } = testApp();
    const cancelled = await body<Json>(await postSubscription(app, checkoutSubscription({ external_identifier: 'sub-cancel' }), CHECKOUT));
    expect((await app.request(`${String(cancelled.payment_url_link).replace(core.baseUrl, '')}/cancel`, { method: 'POST' })).status).toBe(
      303,
    );
    expect((await getSub(app, cancelled.id, CHECKOUT)).status).toBe('failed');

    const expiring = await body<Json>(await postSubscription(app, checkoutSubscription({ external_identifier: 'sub-expire' }), CHECKOUT));
    await features.sandbox.service.advanceClock(DAY);
    expect((await getSub(app, expiring.id, CHECKOUT)).status).toBe('failed');
    const { charges } = await withCharges(app, expiring.id, CHECKOUT);
    expect(charges.map((c) => c.status)).toEqual(['FAILED']);
  });

  it('direct mode with a QR channel: the first charge waits with a payable payment_url_link; renewals charge without the customer', async () => {
    const { app, features } = testApp();
    const thb = { currency: 'THB', plan: { name: 'Gold', currency: 'THB', amount: 900, interval: 'month' } };
    const sub = await body<Json>(
      await postSubscription(
        app,
        directSubscription({
          ...thb,
          payment_method: { type: 'qr', payment_channel_code: 'PROMPTPAY', webhooks_url: 'http://127.0.0.1:9/hooks' },
        }),
      ),
    );
    expect(sub.status).toBe('active');
    expect(sub.payment_url_link).toMatch(/\/pay\//);
    const first = (await withCharges(app, sub.id)).charges[0]!;
    expect(first.status).toBe('PENDING');
    expect((first.payment_method as Json).qr_payload).toMatch(/^000201/);
    expect((await app.request(`/pay/${String(first.id)}/pay`, { method: 'POST' })).status).toBe(200);
    expect((await getSub(app, sub.id)).status).toBe('active');
    await features.sandbox.service.advanceClock(32 * DAY);
    const { charges } = await withCharges(app, sub.id);
    expect(charges.map((c) => c.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect((await getSub(app, sub.id)).status).toBe('active');
  });

  it('a monthly subscription whose card expires in month 4: renewals 1-3 paid, renewal 4 declined expired_card -> past_due, then cancelled; one FAILED webhook per attempt', async () => {
    const { app, core, features, hooks } = appWithReceiver();
    const start = new Date(core.clock.nowMs());
    const expiry = expiryIn(start.getTime(), 3);
    const sub = await body<Json>(
      await postSubscription(
        app,
        directSubscription({
          payment_method: {
            type: 'card',
            number: '4111111111111111',
            expiration_date: expiry,
            security_code: '123',
            webhooks_url: hooks.url,
          },
        }),
      ),
    );
    expect(sub.status).toBe('active');
    await advanceTo(app, core, new Date(plusMonths(start, 3).getTime() + 60_000));
    expect((await getSub(app, sub.id)).status).toBe('active');
    await advanceTo(app, core, new Date(plusMonths(start, 4).getTime() + 60_000));
    expect((await getSub(app, sub.id)).status).toBe('past_due');
    await features.sandbox.service.advanceClock(2 * DAY + 60);
    expect((await getSub(app, sub.id)).status).toBe('cancelled');
    const { charges } = await withCharges(app, sub.id);
    expect(charges.map((c) => [c.status, c.decline_reason])).toEqual([
      ['SUCCEEDED', null],
      ['SUCCEEDED', null],
      ['SUCCEEDED', null],
      ['SUCCEEDED', null],
      ['FAILED', 'expired_card'],
      ['FAILED', 'expired_card'],
      ['FAILED', 'expired_card'],
    ]);
    const all = await hooks.waitFor(7);
    expect(all.map(paymentStatus)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'FAILED', 'FAILED', 'FAILED']);
  });
});
