/**
 * A checkout-mode subscription whose first charge waits for the customer, over
 * real sockets in headless Chromium: the merchant creates a spec-shaped subscription, the
 * customer opens its `payment_url_link`, pays with the test card and lands on the
 * `redirect_url`; the subscription is `active` and the merchant's server receives exactly
 * one signed SUCCEEDED webhook at `webhooks_url`. Another customer cancels there: `failed`.
 * Also a direct-mode PromptPay payment created over HTTP (PENDING, payment_url, QR payload).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { decodePayload } from '../../support/emvco-decoder.js';
import {
  BROWSER_INFO,
  CHECKOUT,
  DIRECT,
  control,
  launchBrowser,
  merchantApi,
  screenshot,
  startMerchant,
  type MerchantServer,
} from '../../support/browser.js';

let sandbox: RunningServer;
let merchant: MerchantServer;
let browser: Browser;

beforeAll(async () => {
  [sandbox, merchant, browser] = await Promise.all([startServer({ port: 0 }), startMerchant(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await merchant?.close();
});

/** A spec-shaped checkout subscription body: payment_method has only the spec's fields. */
function subscriptionBody(reference: string): Record<string, unknown> {
  return {
    external_identifier: reference,
    amount: 1500,
    currency: 'USD',
    customer: { email_address: 'jane@example.com', first_name: 'Jane', last_name: 'Doe' },
    plan: { name: 'Gold', currency: 'USD', amount: 1500, interval: 'month' },
    payment_method: {
      type: 'card',
      payment_channel_code: 'CARD',
      redirect_url: `${merchant.url}/return?sub=${reference}`,
      webhooks_url: `${merchant.url}/webhooks`,
    },
  };
}

async function createSubscription(reference: string): Promise<Record<string, unknown>> {
  const res = await merchantApi(sandbox.url, CHECKOUT).post('/subscriptions', subscriptionBody(reference), {
    'x-forwarded-for': '203.0.113.7',
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** GET /v4/subscriptions/{id} as the merchant's code reads it. */
async function getSubscription(id: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.url}/v4/subscriptions/${String(id)}`, {
    headers: { authorization: `Bearer ${CHECKOUT.api_key}`, 'x-merchant-account-id': CHECKOUT.account_id },
  });
  return (await res.json()) as Record<string, unknown>;
}

const subscriptionStatus = async (id: unknown) =>
  (
    await control<{ items: { id: string; status: string }[] }>(sandbox.url, `/subscriptions?account_id=${CHECKOUT.account_id}&limit=100`)
  ).body.items.find((s) => s.id === id)?.status;

describe('checkout subscription: the first charge waits for the customer on the payment page', () => {
  it('paid on the page with the test card: redirect_url, active, one SUCCEEDED webhook at webhooks_url', async () => {
    const sub = await createSubscription('sub-e2e-pay');
    expect(sub.status).toBe('active');
    expect(String(sub.payment_url_link)).toMatch(new RegExp(`^${sandbox.url}/pay/`));
    const chargeId = String(sub.payment_url_link).split('/pay/')[1]!;
    expect((await control<{ status: string }>(sandbox.url, `/transactions/${chargeId}`)).body.status).toBe('PENDING');

    const page = await browser.newPage({ viewport: { width: 420, height: 860 } });
    await page.goto(String(sub.payment_url_link));
    expect(await page.locator('.pay-amount').textContent()).toBe('15.00 USD');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await screenshot(page, 'subscription-first-charge-420', true);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(`${merchant.url}/return?sub=sub-e2e-pay`);
    await page.close();

    expect(await subscriptionStatus(sub.id)).toBe('active');
    // The card the customer paid with is on the subscription, masked, as in direct mode.
    expect((await getSubscription(sub.id)).payment_method).toEqual({ type: 'card', card: { last4: '4242', expiration_date: '12/30' } });
    const webhook = await merchant.waitFor((w) => w.body.ll_transaction_id === chargeId);
    expect(webhook.verified).toBe(true);
    expect(webhook.path).toBe('/webhooks');
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'SUCCEEDED', payment_amount: '15.00' });
    // Exactly one webhook for the charge, even after the sandbox clock passes the link's 24 hours.
    await control(sandbox.url, '/clock/advance', { method: 'POST', body: { seconds: 86_400 } });
    expect(merchant.received.filter((w) => w.body.ll_transaction_id === chargeId)).toHaveLength(1);
  });

  it('cancelled on the page: the subscription is failed, with one FAILED webhook', async () => {
    const sub = await createSubscription('sub-e2e-cancel');
    const chargeId = String(sub.payment_url_link).split('/pay/')[1]!;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(String(sub.payment_url_link));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${merchant.url}/return?sub=sub-e2e-cancel`);
    await page.close();
    expect(await subscriptionStatus(sub.id)).toBe('failed');
    const webhook = await merchant.waitFor((w) => w.body.ll_transaction_id === chargeId);
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'FAILED' });
  });
});

describe('checkout subscription with a trial: the page saves the card without charging', () => {
  it('payment_url_link from creation; the card saved in the browser is on the subscription; the trial end charges it', async () => {
    const reference = 'sub-e2e-trial';
    const res = await merchantApi(sandbox.url, CHECKOUT).post(
      '/subscriptions',
      { ...subscriptionBody(reference), plan: { name: 'Gold', currency: 'USD', amount: 1500, interval: 'month', trial_period_days: 7 } },
      { 'x-forwarded-for': '203.0.113.7' },
    );
    expect(res.status).toBe(201);
    const sub = res.body;
    expect(sub.payment_url_link).toBe(`${sandbox.url}/pay/${String(sub.id)}`);
    expect(sub.payment_method).toEqual({ type: 'card' });

    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
    await page.goto(String(sub.payment_url_link));
    expect(await page.locator('.pay-amount').textContent()).toBe('0.00 USD');
    expect(await page.locator('h1').textContent()).toBe('Save a card for your subscription');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('11/31');
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Name on card').fill('Jane Doe');
    await screenshot(page, 'subscription-trial-save-card-420', true);
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(`${merchant.url}/return?sub=${reference}`);
    await page.close();

    const card = { last4: '4242', expiration_date: '11/31' };
    expect(await getSubscription(sub.id)).toMatchObject({ status: 'active', payment_method: { type: 'card', card } });
    const before = merchant.received.length;
    // Nothing was charged: no charge, no webhook, until the trial ends.
    const charges = async () =>
      (
        await control<{ items: { id: string; charges: { id: string; status: string }[] }[] }>(
          sandbox.url,
          `/subscriptions?account_id=${CHECKOUT.account_id}&limit=100`,
        )
      ).body.items.find((s) => s.id === sub.id)!.charges;
    expect(await charges()).toEqual([]);
    await control(sandbox.url, '/clock/advance', { method: 'POST', body: { seconds: 8 * 86_400 } });
    const [first] = await charges();
    expect(first!.status).toBe('SUCCEEDED');
    const webhook = await merchant.waitFor((w) => w.body.ll_transaction_id === first!.id);
    expect(webhook.verified).toBe(true);
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'SUCCEEDED', payment_amount: '15.00' });
    expect(merchant.received.length).toBeGreaterThan(before);
    expect(await getSubscription(sub.id)).toMatchObject({ status: 'active', payment_method: { type: 'card', card } });
  });
});

describe('direct-mode PromptPay over HTTP', () => {
  it('PENDING with a payment_url and a valid EMVCo payload', async () => {
    const res = await merchantApi(sandbox.url, DIRECT).post('/transactions', {
      amount: 12_345,
      currency: 'THB',
      payment_method: { type: 'qr', payment_channel_code: 'PROMPTPAY' },
      browser_info: BROWSER_INFO,
    });
    expect(res.status).toBe(201);
    const tx = res.body as { id: string; status: string; payment_url: string; payment_method: { qr_payload: string } };
    expect(tx.status).toBe('PENDING');
    expect(tx.payment_url).toBe(`${sandbox.url}/pay/${tx.id}`);
    const decoded = decodePayload(tx.payment_method.qr_payload);
    expect(decoded.crc.stated).toBe(decoded.crc.computed);
    expect(decoded.fields.get('54')).toBe('123.45');
    expect(decoded.fields.get('53')).toBe('764');
  });
});
