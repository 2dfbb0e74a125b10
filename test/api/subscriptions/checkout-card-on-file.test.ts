/**
 * Checkout subscriptions, without a
 * socket: `payment_url_link` is there from creation, trial or not; with a trial the page saves
 * the card without charging and the first charge at the trial's end uses it (or fails when the
 * page was never completed, with its webhook); once the customer has paid or saved a card,
 * `payment_method.card` is on the subscription, its charges and their (event-format) webhooks,
 * renewals included.
 */
import { describe, expect, it } from 'vitest';
import { body, testApp } from '../../support/app.js';
import {
  CHECKOUT,
  DAY,
  checkoutSubscription,
  createSubscription,
  directSubscription,
  getSubscription,
  withCharges,
  type App,
  type Json,
} from '../../support/subscriptions.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const trialPlan = { name: 'Gold', currency: 'USD', amount: 900, interval: 'month', trial_period_days: 14 };

function submit(app: App, path: string, form: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(app.request(path, { method: 'POST', body: new URLSearchParams(form), headers: FORM }));
}

const saveCard = (app: App, sub: Json, number = '4242 4242 4242 4242', expiry = '11/31') =>
  submit(app, `/pay/${String(sub.id)}/pay`, { number, expiry, security_code: '123', holder_name: 'Jane Doe' });

/** The JSON bodies of the webhooks queued for a transaction. */
function webhookBodies(core: ReturnType<typeof testApp>['core'], txId: unknown): Json[] {
  return core.queries.deliveries.forResource(String(txId)).map((d) => JSON.parse(d.body) as Json);
}

describe('checkout subscription with a trial: the page collects the card without charging', () => {
  it('payment_url_link is present from creation: the trial page, which charges nothing', async () => {
    const { app, core } = testApp();
    const sub = await createSubscription(app, checkoutSubscription({ plan: trialPlan }), CHECKOUT);
    expect(sub.payment_url_link).toBe(`${core.baseUrl}/pay/${String(sub.id)}`);
    expect(sub.payment_method).toEqual({ type: 'card' });
    const page = await app.request(`/pay/${String(sub.id)}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Save card');
    expect(text).toContain('You will not be charged now');
    expect((await withCharges(app, sub.id, CHECKOUT)).charges).toEqual([]);
  });

  it('a saved card is on the subscription at once; the trial end charges it; renewals too (GET and event webhooks)', async () => {
    const { app, core, features } = testApp({ webhookFormat: 'event' });
    const sub = await createSubscription(app, checkoutSubscription({ plan: trialPlan }), CHECKOUT);
    const saved = await saveCard(app, sub);
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('https://merchant.example/done');
    const card = { last4: '4242', expiration_date: '11/31' };
    expect((await getSubscription(app, sub.id, CHECKOUT)).payment_method).toEqual({ type: 'card', card });
    expect((await withCharges(app, sub.id, CHECKOUT)).charges).toEqual([]); // nothing charged
    // Once saved, the page says so and cannot be submitted again.
    expect(await (await app.request(`/pay/${String(sub.id)}`)).text()).toContain('Payment method saved');
    expect((await saveCard(app, sub)).status).toBe(409);

    await features.sandbox.service.advanceClock(15 * DAY);
    let charges = (await withCharges(app, sub.id, CHECKOUT)).charges;
    expect(charges.map((c) => [c.status, (c.payment_method as Json | null)?.card])).toEqual([
      ['SUCCEEDED', { last4: '4242', expiration_date: '11/31', brand: 'visa', holder_name: 'Jane Doe' }],
    ]);
    const first = webhookBodies(core, charges[0]!.id)[0]!;
    expect(first.type).toBe('transaction.completed');
    expect((first.data as { transaction: { payment_method: Json } }).transaction.payment_method).toMatchObject({ type: 'card', card });

    await features.sandbox.service.advanceClock(31 * DAY);
    charges = (await withCharges(app, sub.id, CHECKOUT)).charges;
    expect(charges.map((c) => c.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    const renewal = webhookBodies(core, charges[1]!.id)[0]!;
    expect((renewal.data as { transaction: { payment_method: Json } }).transaction.payment_method).toMatchObject({ card });
    expect(await getSubscription(app, sub.id, CHECKOUT)).toMatchObject({ status: 'active', payment_method: { type: 'card', card } });
  });

  it('not completed when the trial ends: the first charge fails (no_payment_method) with its webhook; failed', async () => {
    const { app, core, features } = testApp();
    const sub = await createSubscription(app, checkoutSubscription({ plan: trialPlan }), CHECKOUT);
    // Leaving the page registers nothing.
    expect((await submit(app, `/pay/${String(sub.id)}/cancel`)).status).toBe(303);
    await features.sandbox.service.advanceClock(15 * DAY);
    const { charges } = await withCharges(app, sub.id, CHECKOUT);
    expect(charges.map((c) => [c.status, c.decline_reason])).toEqual([['FAILED', 'no_payment_method']]);
    const [hook] = webhookBodies(core, charges[0]!.id);
    expect((hook!.payment_data as Json).payment_status).toBe('FAILED');
    expect(await getSubscription(app, sub.id, CHECKOUT)).toMatchObject({ status: 'failed', payment_method: { type: 'card' } });
    expect(await (await app.request(`/pay/${String(sub.id)}`)).text()).toContain('The trial has ended');
  });

  it('an expired or malformed card is refused on the page (400), nothing saved', async () => {
    const { app } = testApp();
    const sub = await createSubscription(app, checkoutSubscription({ plan: trialPlan }), CHECKOUT);
    const expired = await saveCard(app, sub, '4242424242424242', '01/20');
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('This card has expired');
    expect((await saveCard(app, sub, '1234')).status).toBe(400);
    expect((await getSubscription(app, sub.id, CHECKOUT)).payment_method).toEqual({ type: 'card' });
  });

  it('a decline test card saved on the page declines the first charge at the end of the trial', async () => {
    const { app, features } = testApp();
    const sub = await createSubscription(app, checkoutSubscription({ plan: trialPlan }), CHECKOUT);
    expect((await saveCard(app, sub, '4000 0000 0000 0002')).status).toBe(303);
    await features.sandbox.service.advanceClock(15 * DAY);
    expect((await withCharges(app, sub.id, CHECKOUT)).charges.map((c) => c.status)).toEqual(['FAILED']);
    expect((await getSubscription(app, sub.id, CHECKOUT)).status).toBe('failed');
  });

  it('a wallet channel with a trial: the page authorises it, the trial end charges it', async () => {
    const { app, core, features } = testApp();
    const thb = { currency: 'THB', plan: { ...trialPlan, currency: 'THB' } };
    const sub = await createSubscription(
      app,
      directSubscription({
        ...thb,
        payment_method: { type: 'wallet', payment_channel_code: 'TRUEMONEY', webhooks_url: 'http://127.0.0.1:9/hooks' },
      }),
    );
    expect(sub.payment_url_link).toBe(`${core.baseUrl}/pay/${String(sub.id)}`);
    expect(await (await app.request(`/pay/${String(sub.id)}`)).text()).toContain('Authorise recurring payments with TrueMoney');
    expect((await submit(app, `/pay/${String(sub.id)}/pay`)).status).toBe(200);
    await features.sandbox.service.advanceClock(15 * DAY);
    expect((await withCharges(app, sub.id)).charges.map((c) => c.status)).toEqual(['SUCCEEDED']);
  });
});

describe('checkout subscription without a trial: the card paid with on the page goes on file', () => {
  it('payment_method.card after the customer pays; renewals charge it and show it', async () => {
    const { app, core, features } = testApp({ webhookFormat: 'event' });
    const sub = await createSubscription(app, checkoutSubscription(), CHECKOUT);
    const first = (await withCharges(app, sub.id, CHECKOUT)).charges[0]!;
    expect(sub.payment_url_link).toBe(`${core.baseUrl}/pay/${String(first.id)}`);
    const paid = await submit(app, `/pay/${String(first.id)}/pay`, {
      number: '5555 5555 5555 4444',
      expiry: '10/32',
      security_code: '123',
    });
    expect(paid.status).toBe(303);
    const card = { last4: '4444', expiration_date: '10/32' };
    expect(await getSubscription(app, sub.id, CHECKOUT)).toMatchObject({ status: 'active', payment_method: { type: 'card', card } });
    const hook = webhookBodies(core, first.id)[0]!;
    expect((hook.data as { transaction: { payment_method: Json } }).transaction.payment_method).toMatchObject({ type: 'card', card });

    await features.sandbox.service.advanceClock(32 * DAY);
    const { charges } = await withCharges(app, sub.id, CHECKOUT);
    expect(charges.map((c) => [c.status, (c.payment_method as { card?: Json } | null)?.card?.last4])).toEqual([
      ['SUCCEEDED', '4444'],
      ['SUCCEEDED', '4444'],
    ]);
    expect(
      (
        await body<Json>(
          await app.request(`/v4/subscriptions/${String(sub.id)}`, {
            headers: { authorization: `Bearer ${CHECKOUT.api_key}`, 'x-merchant-account-id': CHECKOUT.account_id },
          }),
        )
      ).payment_method,
    ).toEqual({ type: 'card', card });
  });
});
