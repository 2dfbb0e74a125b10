/**
 * The checkout payment page in a real browser: a merchant creates a checkout-mode
 * transaction, the customer opens its payment_url, clicks Pay or Cancel and lands on the
 * merchant's return_url or cancel_url, while the merchant's server receives the signed
 * payment webhook. Also: pages for unknown, direct-mode and finished transactions.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { CHECKOUT, DIRECT, control, launchBrowser, merchantApi, screenshot, startMerchant, type MerchantServer } from './support.js';

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

/** A checkout transaction as a merchant creates it. */
function checkoutTransaction(reference: string, extra: Record<string, unknown> = {}) {
  return merchantApi(sandbox.url, CHECKOUT).createTransaction({
    amount: 4990,
    currency: 'EUR',
    description: 'Annual plan, 12 months',
    external_identifier: reference,
    customer: { email: 'jane@example.com', name: 'Jane Doe' },
    return_url: `${merchant.url}/return?order=${reference}`,
    cancel_url: `${merchant.url}/cancel?order=${reference}`,
    notification_url: `${merchant.url}/webhooks`,
    ...extra,
  });
}

async function newPage(width = 1280, height = 800): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('dialog', (dialog) => {
    throw new Error(`unexpected dialog: ${dialog.message()}`);
  });
  return page;
}

const statusOf = async (id: string) => (await control<{ status: string }>(sandbox.url, `/transactions/${id}`)).body.status;

describe('checkout payment page', () => {
  it('Pay: shows merchant, amount and description, then lands on return_url with the transaction SUCCEEDED and a signed webhook', async () => {
    const tx = await checkoutTransaction('order-pay-1');
    expect(tx.payment_url).toBe(`${sandbox.url}/pay/${tx.id}`);

    const page = await newPage();
    await page.goto(tx.payment_url!);
    await expect.poll(() => page.title()).toContain('Pay 49.90 EUR');
    const card = page.locator('main');
    await expect.poll(() => card.locator('.pay-merchant').textContent()).toBe('checkout');
    await expect.poll(() => card.locator('.pay-amount').textContent()).toBe('49.90 EUR');
    await expect.poll(() => card.locator('.pay-description').textContent()).toBe('Annual plan, 12 months');
    await screenshot(page, 'payment-page-1280');

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-pay-1`);
    expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');

    const webhook = await merchant.waitFor((w) => w.body.ll_transaction_id === tx.id);
    expect(webhook.verified).toBe(true);
    expect(webhook.body.merchant_transaction_id).toBe('order-pay-1');
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'SUCCEEDED', payment_amount: '49.90', payment_currency_code: 'EUR' });
    await page.close();
  });

  it('Cancel: lands on cancel_url with the transaction FAILED and a signed FAILED webhook', async () => {
    const tx = await checkoutTransaction('order-cancel-1');
    const page = await newPage();
    await page.goto(tx.payment_url!);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL(`${merchant.url}/cancel?order=order-cancel-1`);
    expect(await page.locator('h1').textContent()).toBe('Payment cancelled');
    expect(await statusOf(tx.id)).toBe('FAILED');
    const webhook = await merchant.waitFor((w) => w.body.ll_transaction_id === tx.id);
    expect(webhook.verified).toBe(true);
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'FAILED' });
    await page.close();
  });

  it('Cancel without a cancel_url returns to return_url', async () => {
    const tx = await checkoutTransaction('order-cancel-2', { cancel_url: undefined });
    const page = await newPage();
    await page.goto(tx.payment_url!);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-cancel-2`);
    expect(await statusOf(tx.id)).toBe('FAILED');
    await page.close();
  });

  it('works without JavaScript: plain forms', async () => {
    const tx = await checkoutTransaction('order-nojs-1');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(tx.payment_url!);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-nojs-1`);
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
    await context.close();
  });

  it('a finished payment says so, offers no Pay or Cancel, and a second POST is a 409 page that changes nothing', async () => {
    const tx = await checkoutTransaction('order-done-1');
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    const before = merchant.received.filter((w) => w.body.ll_transaction_id === tx.id).length;

    const page = await newPage();
    const response = await page.goto(tx.payment_url!);
    expect(response?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('This payment is already SUCCEEDED');
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Return to the merchant' }).getAttribute('href')).toBe(`${merchant.url}/return?order=order-done-1`);
    await screenshot(page, 'payment-page-finished');
    await page.close();

    const again = await fetch(`${sandbox.url}/pay/${tx.id}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('This payment is already <span class="badge badge-ok">SUCCEEDED</span>');
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(merchant.received.filter((w) => w.body.ll_transaction_id === tx.id).length).toBe(before);
  });

  it('an unknown id is a 404 page that says so; a POST to it too', async () => {
    const page = await newPage(420, 800);
    const response = await page.goto(`${sandbox.url}/pay/00000000-0000-4000-8000-000000000000`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Payment not found');
    expect(await page.locator('main').textContent()).toContain('There is no transaction with this id');
    expect(await page.getByRole('button').count()).toBe(0);
    await screenshot(page, 'payment-page-unknown-420');
    await page.close();
    const post = await fetch(`${sandbox.url}/pay/nope/pay`, { method: 'POST', redirect: 'manual' });
    expect(post.status).toBe(404);
  });

  it('a direct-mode transaction has no payment page', async () => {
    const tx = await merchantApi(sandbox.url, DIRECT).createTransaction({ amount: 1000, currency: 'USD' });
    const response = await fetch(`${sandbox.url}/pay/${tx.id}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('direct-integration account, which has no payment page');
    const post = await fetch(`${sandbox.url}/pay/${tx.id}/pay`, { method: 'POST', redirect: 'manual' });
    expect(post.status).toBe(404);
    expect(await statusOf(tx.id)).toBe('PENDING');
  });

  it('shows merchant strings as text: an HTML description renders literally and runs nothing', async () => {
    const description = '<img src=x onerror=alert(1)>';
    const tx = await checkoutTransaction('<b>ref</b>', { description });
    const page = await newPage(420, 860);
    await page.goto(tx.payment_url!);
    expect(await page.locator('.pay-description').textContent()).toBe(description);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.locator('main b').count()).toBe(0);
    expect(await page.locator('.pay-facts').textContent()).toContain('<b>ref</b>');
    await screenshot(page, 'payment-page-420');
    await page.close();
  });
});
