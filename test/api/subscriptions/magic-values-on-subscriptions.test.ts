/**
 * Scenario magic values on a spec-shaped direct subscription, through the app with its
 * charges' webhooks at a verifying in-memory receiver (`payment_method.webhooks_url`, no
 * default notification URL): the default card on file triggers no rule, the customer's
 * e-mail and the amount do, for the first charge and every renewal.
 */
import { describe, expect, it } from 'vitest';
import { DIRECT, headers } from '../../support/app.js';
import { appWithReceiver } from '../../support/memory-receiver.js';
import { directSubscription, type Json } from '../../support/subscriptions.js';

type App = ReturnType<typeof appWithReceiver>['app'];

function setup() {
  const { app, hooks } = appWithReceiver();
  return { app, receiver: hooks };
}

async function call(
  app: App,
  method: string,
  path: string,
  payload?: unknown,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const control = path.startsWith('/_sandbox');
  const res = await app.request(path, {
    method,
    headers: control ? { 'content-type': 'application/json' } : headers(DIRECT, extra),
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const paymentData = (hook: { body: unknown }) => (hook.body as { payment_data: Json }).payment_data;

/** A spec-shaped direct body: `payment_method` without card fields, so the default test card goes on file. */
function specShaped(receiverUrl: string, overrides: Json = {}): Json {
  return directSubscription({
    payment_method: { type: 'card', payment_channel_code: 'CARD', webhooks_url: receiverUrl },
    ...overrides,
  });
}

const subscribe = (app: App, payload: Json) => call(app, 'POST', '/v4/subscriptions', payload, { 'x-forwarded-for': '203.0.113.7' });

describe('scenario magic values on a spec-shaped direct subscription (the default card on file triggers no rule)', () => {
  it('a customer e-mail @decline.test declines the first charge: the subscription is failed, with the FAILED webhook', async () => {
    const { app, receiver } = setup();
    const customer = { email_address: 'lee@decline.test', first_name: 'Lee' };
    const created = await subscribe(app, specShaped(receiver.url, { customer }));
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('failed');
    expect((created.body.payment_method as Json).card).toMatchObject({ last4: '4242' });
    const [hook] = await receiver.waitFor(1);
    expect(hook!.verified).toBe(true);
    expect((hook!.body as Json).merchant_transaction_id).toBe('sub-0001.period-0');
    expect(paymentData(hook!).payment_status).toBe('FAILED');
    const charges = (await call(app, 'GET', '/v4/transactions?limit=10')).body.items as Json[];
    expect(charges.map((t) => t.status)).toEqual(['FAILED']);
  });

  it('the amount 100002 declines the first charge the same way', async () => {
    const { app, receiver } = setup();
    const created = await subscribe(app, specShaped(receiver.url, { amount: 100002 }));
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('failed');
    const [hook] = await receiver.waitFor(1);
    expect(paymentData(hook!)).toMatchObject({ payment_status: 'FAILED', payment_amount: '1000.02' });
  });

  it('the rule the e-mail chose stays with the renewals: every charge is decided by it', async () => {
    const { app, receiver } = setup();
    const customer = { email_address: 'kim@succeed.test', first_name: 'Kim' };
    const plan = { name: 'Gold', currency: 'USD', amount: 900, interval: 'week' };
    const created = await subscribe(app, specShaped(receiver.url, { customer, plan }));
    expect(created.body.status).toBe('active');
    await call(app, 'POST', '/_sandbox/clock/advance', { seconds: 7 * 86_400 + 60 });
    const hooks = await receiver.waitFor(2);
    expect(hooks.map((h) => paymentData(h).payment_status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    const charges = (await call(app, 'GET', '/v4/transactions?limit=10')).body.items as Json[];
    expect(charges).toHaveLength(2);
    for (const charge of charges) {
      const detail = await call(app, 'GET', `/_sandbox/transactions/${String(charge.id)}`);
      expect(detail.body.scenario_rule).toBe('default/email @succeed.test');
    }
  });

  it('the e-mail decides whatever card is on file, even a magic card given explicitly', async () => {
    const { app, receiver } = setup();
    const explicit = directSubscription({
      amount: 100002,
      customer: { email_address: 'lee@decline.test', first_name: 'Lee' },
      payment_method: {
        type: 'card',
        number: '4242424242424242',
        expiration_date: '12/30',
        security_code: '123',
        webhooks_url: receiver.url,
      },
    });
    const created = await subscribe(app, explicit);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.status).toBe('failed');
    const [hook] = await receiver.waitFor(1);
    expect(paymentData(hook!).payment_status).toBe('FAILED');
  });
});
