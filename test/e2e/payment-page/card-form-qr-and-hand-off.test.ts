/**
 * The hosted payment page in a real browser, for each kind of payment method: a merchant
 * creates a checkout-mode transaction (card) or one with a QR, wallet or banking-app channel
 * (put in the store directly here, since the creation flows that store a channel are wired
 * elsewhere), the customer opens its payment page, pays or cancels there and lands on the
 * merchant's return_url or cancel_url, while the merchant's server receives the signed
 * payment webhook. Also: no-JavaScript form posts, the 24-hour expiry on the sandbox clock,
 * pages for unknown, direct-mode card and finished transactions, and screenshots of every
 * method at 1280 and 420 px (light and dark) in `SHOTS_DIR` when it is set.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/features/transactions/entities.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { decodePayload, tlvMap } from '../../support/emvco-decoder.js';
import { CHECKOUT, DIRECT, control, launchBrowser, merchantApi, startMerchant, type MerchantServer } from '../../support/browser.js';

/** Where the screenshots go, when asked (`SHOTS_DIR=/tmp/shots/`). */
const SHOTS = process.env.SHOTS_DIR;

let sandbox: RunningServer;
let merchant: MerchantServer;
let browser: Browser;

beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  [sandbox, merchant, browser] = await Promise.all([startServer({ port: 0 }), startMerchant(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await merchant?.close();
});

/** A checkout transaction as a merchant creates it (no channel: the card form). */
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

/**
 * A PENDING transaction paid with `channel`, put in the store as the creation flow would
 * (checkout account unless `accountId` says otherwise). Returns its payment page URL.
 */
function channelTransaction(
  server: RunningServer,
  channel: string,
  currency: string,
  amount: number,
  reference: string,
  accountId = CHECKOUT.account_id,
): { id: string; url: string } {
  const now = server.core.clock.nowMs();
  const row: Omit<Transaction, 'seq'> = {
    id: randomUUID(),
    account_id: accountId,
    status: 'PENDING',
    amount,
    currency,
    description: `Order ${reference}`,
    customer: { email: 'somchai@example.com', name: 'Somchai P.' },
    return_url: `${merchant.url}/return?order=${reference}`,
    cancel_url: `${merchant.url}/cancel?order=${reference}`,
    external_identifier: reference,
    notification_url: `${merchant.url}/webhooks`,
    metadata: null,
    payment_method: {
      type: channel === 'CARD' ? 'card' : channel === 'PROMPTPAY' || channel === 'PIX' ? 'qr' : 'wallet',
      payment_channel_code: channel,
    },
    browser_info: null,
    refunded_amount: 0,
    subscription_id: null,
    scenario_rule: null,
    decline_reason: null,
    link_expires_at: now + 24 * 3600 * 1000,
    created_at: now,
    updated_at: now,
    resolved_at: null,
  };
  server.stores.transactions.insert(row);
  return { id: row.id, url: `${server.url}/pay/${row.id}` };
}

async function newPage(width = 1280, height = 900, context?: BrowserContext): Promise<Page> {
  const page = context ? await context.newPage() : await browser.newPage({ viewport: { width, height } });
  if (context) await page.setViewportSize({ width, height });
  page.on('dialog', (dialog) => {
    throw new Error(`unexpected dialog: ${dialog.message()}`);
  });
  return page;
}

/**
 * Nothing overflows sideways on a phone (420 px). With `SHOTS_DIR` set, also full-page
 * screenshots of the page at 1280 and 420 px, and at 420 px in dark mode, to be looked at.
 */
async function shots(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 420, height: 860 });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}${name}-420.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  if (SHOTS) {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}${name}-420-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const statusOf = async (id: string, server = sandbox) => (await control<{ status: string }>(server.url, `/transactions/${id}`)).body.status;
const webhookOf = (id: string) => merchant.waitFor((w) => w.body.ll_transaction_id === id);

async function fillCard(page: Page, card: { number: string; expiry: string; code: string; holder?: string }): Promise<void> {
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry (MM/YY)').fill(card.expiry);
  await page.getByLabel('Security code').fill(card.code);
  if (card.holder) await page.getByLabel('Name on card').fill(card.holder);
}

describe('card form (checkout payments without a channel)', () => {
  it('shows merchant, amount, description and the card form; test card 4242 pays: return_url, SUCCEEDED, signed webhook', async () => {
    const tx = await checkoutTransaction('order-card-1');
    expect(tx.payment_url).toBe(`${sandbox.url}/pay/${tx.id}`);

    const page = await newPage();
    await page.goto(tx.payment_url!);
    await expect.poll(() => page.title()).toContain('Pay 49.90 EUR');
    const main = page.locator('main');
    expect(await main.locator('.pay-merchant').textContent()).toBe('checkout');
    expect(await main.locator('.pay-amount').textContent()).toBe('49.90 EUR');
    expect(await main.locator('.pay-description').textContent()).toBe('Annual plan, 12 months');
    expect(await main.locator('.pay-method').textContent()).toContain('Card');
    await page.locator('.pay-test-cards summary').click();
    expect(await page.locator('.pay-test-cards').textContent()).toContain('4000 0000 0000 0002');
    await fillCard(page, { number: '4242 4242 4242 4242', expiry: '12/30', code: '123', holder: 'Jane Doe' });
    await shots(page, 'pay-card');

    await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-card-1`);
    expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');

    const webhook = await webhookOf(tx.id);
    expect(webhook.verified).toBe(true);
    expect(webhook.body.merchant_transaction_id).toBe('order-card-1');
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'SUCCEEDED', payment_amount: '49.90', payment_currency_code: 'EUR' });
    await page.close();
  });

  it('the magic decline card 4000 0000 0000 0002 typed on the page: FAILED and its webhook, back at return_url', async () => {
    const tx = await checkoutTransaction('order-card-decline');
    const page = await newPage(420, 860);
    await page.goto(tx.payment_url!);
    await fillCard(page, { number: '4000000000000002', expiry: '12/30', code: '123' });
    await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-card-decline`);
    expect(await statusOf(tx.id)).toBe('FAILED');
    expect((await webhookOf(tx.id)).body.payment_data).toMatchObject({ payment_status: 'FAILED' });
    await page.close();
  });

  it("a card expired before the sandbox clock's month is declined (FAILED)", async () => {
    const tx = await checkoutTransaction('order-card-expired');
    const page = await newPage();
    await page.goto(tx.payment_url!);
    await fillCard(page, { number: '4242424242424242', expiry: '01/20', code: '123' });
    await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-card-expired`);
    expect(await statusOf(tx.id)).toBe('FAILED');
    expect((await webhookOf(tx.id)).body.payment_data).toMatchObject({ payment_status: 'FAILED' });
    await page.close();
  });

  it('a bad card number, a 3-digit Amex code and a bad expiry re-show the form (400) with messages; nothing changes', async () => {
    const tx = await checkoutTransaction('order-card-invalid');
    const page = await newPage(420, 860);
    await page.goto(tx.payment_url!);
    await fillCard(page, { number: '4242 4242 4242 4241', expiry: '13/30', code: '123' });
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/pay') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Pay 49.90 EUR' }).click(),
    ]);
    expect(response.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toBe('Check the card details below.');
    expect(await page.locator('#number-error').textContent()).toContain('valid card number');
    expect(await page.locator('#expiry-error').textContent()).toContain('MM/YY');
    expect(await page.getByLabel('Card number').inputValue()).toBe('4242424242424241');
    expect(await page.getByLabel('Security code').inputValue()).toBe('');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}pay-card-errors-420.png`, fullPage: true });

    await fillCard(page, { number: '3782 822463 10005', expiry: '12/30', code: '123' });
    await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
    await page.waitForLoadState();
    expect(await page.locator('#security_code-error').textContent()).toContain('4-digit security code');
    expect(await page.locator('#number-error').count()).toBe(0);
    expect(await statusOf(tx.id)).toBe('PENDING');
    await page.close();
  });

  it('Amex with a 4-digit code pays', async () => {
    const tx = await checkoutTransaction('order-card-amex');
    const page = await newPage();
    await page.goto(tx.payment_url!);
    await fillCard(page, { number: '378282246310005', expiry: '12/30', code: '1234' });
    await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-card-amex`);
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
    await page.close();
  });

  it('the slow-success card 4000 0000 0000 0077: processing page until 30 s of sandbox clock pass, then SUCCEEDED', async () => {
    const tx = await checkoutTransaction('order-card-slow');
    const page = await newPage();
    await page.goto(tx.payment_url!);
    await fillCard(page, { number: '4000000000000077', expiry: '12/30', code: '123' });
    await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-card-slow`);
    expect(await statusOf(tx.id)).toBe('PENDING');
    await page.goto(tx.payment_url!);
    expect(await page.locator('h1').textContent()).toContain('Payment processing');
    expect(await page.getByRole('button').count()).toBe(0);
    const again = await fetch(`${sandbox.url}/pay/${tx.id}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(again.status).toBe(409);
    await control(sandbox.url, '/clock/advance', { method: 'POST', body: { seconds: 30 } });
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
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
    const webhook = await webhookOf(tx.id);
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
});

describe('QR screens (PromptPay, Pix)', () => {
  it('PromptPay: the QR image and a Thai QR payload with the amount and a valid CRC; "I have scanned and paid" → return_url, SUCCEEDED', async () => {
    const tx = channelTransaction(sandbox, 'PROMPTPAY', 'THB', 35050, 'order-promptpay-1');
    const page = await newPage();
    await page.goto(tx.url);
    expect(await page.locator('h1').textContent()).toBe('Scan to pay with PromptPay');
    expect(await page.locator('.pay-amount').textContent()).toBe('350.50 THB');
    const image = page.locator('img.pay-qr-image');
    expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    const payload = await page.locator('#qr-payload').inputValue();
    const { fields, crc } = decodePayload(payload);
    expect(crc.computed).toBe(crc.stated);
    expect(fields.get('01')).toBe('12');
    expect(tlvMap(fields.get('29')!).get('00')).toBe('A000000677010111');
    expect(fields.get('53')).toBe('764');
    expect(fields.get('54')).toBe('350.50');
    expect(fields.get('58')).toBe('TH');
    await shots(page, 'pay-promptpay');

    await page.getByRole('button', { name: 'I have scanned and paid' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-promptpay-1`);
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
    const webhook = await webhookOf(tx.id);
    expect(webhook.verified).toBe(true);
    expect(webhook.body.payment_data).toMatchObject({
      payment_status: 'SUCCEEDED',
      payment_amount: '350.50',
      payment_currency_code: 'THB',
    });
    await page.close();
  });

  it('Pix: a BR Code with key, amount, merchant, city and txid and a valid CRC; Cancel → cancel_url, FAILED', async () => {
    const tx = channelTransaction(sandbox, 'PIX', 'BRL', 4990, 'order-pix-1');
    const page = await newPage();
    await page.goto(tx.url);
    expect(await page.locator('h1').textContent()).toBe('Scan to pay with Pix');
    const { fields, crc } = decodePayload(await page.locator('#qr-payload').inputValue());
    expect(crc.computed).toBe(crc.stated);
    expect(tlvMap(fields.get('26')!).get('00')).toBe('br.gov.bcb.pix');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('49.90');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('checkout');
    expect(tlvMap(fields.get('62')!).get('05')).toBe(tx.id.replace(/-/g, '').slice(0, 25));
    await shots(page, 'pay-pix');

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL(`${merchant.url}/cancel?order=order-pix-1`);
    expect(await statusOf(tx.id)).toBe('FAILED');
    expect((await webhookOf(tx.id)).body.payment_data).toMatchObject({ payment_status: 'FAILED' });
    await page.close();
  });

  it('a direct-mode QR payment has a payment page too (the customer must scan)', async () => {
    const tx = channelTransaction(sandbox, 'PROMPTPAY', 'THB', 10000, 'order-direct-qr', DIRECT.account_id);
    const response = await fetch(tx.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Scan to pay with PromptPay');
  });
});

describe('wallet and banking-app hand-off', () => {
  it('TrueMoney: "Open TrueMoney Wallet", then the app\'s Approve → return_url, SUCCEEDED', async () => {
    const tx = channelTransaction(sandbox, 'TRUEMONEY', 'THB', 29900, 'order-truemoney-1');
    const page = await newPage();
    await page.goto(tx.url);
    expect(await page.locator('h1').textContent()).toBe('Continue in TrueMoney Wallet');
    await shots(page, 'pay-wallet-truemoney');
    await page.getByRole('link', { name: 'Open TrueMoney Wallet' }).click();
    await page.waitForURL(`${sandbox.url}/pay/${tx.id}/app`);
    expect(await page.locator('h1').textContent()).toBe('Approve payment');
    expect(await page.locator('.pay-app-bar').textContent()).toContain('TrueMoney Wallet');
    await shots(page, 'pay-wallet-truemoney-app');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-truemoney-1`);
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
    expect((await webhookOf(tx.id)).body.payment_data).toMatchObject({ payment_status: 'SUCCEEDED', payment_amount: '299.00' });
    await page.close();
  });

  it('K PLUS (banking app): Open K PLUS, then Decline → cancel_url, FAILED', async () => {
    const tx = channelTransaction(sandbox, 'KPLUS', 'THB', 120000, 'order-kplus-1');
    const page = await newPage();
    await page.goto(tx.url);
    expect(await page.locator('.pay-method').textContent()).toContain('Thai mobile banking apps');
    await shots(page, 'pay-banking-kplus');
    await page.getByRole('link', { name: 'Open K PLUS' }).click();
    await shots(page, 'pay-banking-kplus-app');
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(`${merchant.url}/cancel?order=order-kplus-1`);
    expect(await statusOf(tx.id)).toBe('FAILED');
    await page.close();
  });

  it('Alipay (Chinese wallet): the hand-off screen, Cancel on it → cancel_url', async () => {
    const tx = channelTransaction(sandbox, 'ALIPAY', 'CNY', 8800, 'order-alipay-1');
    const page = await newPage();
    await page.goto(tx.url);
    expect(await page.getByRole('link', { name: 'Open Alipay' }).count()).toBe(1);
    await shots(page, 'pay-wallet-alipay');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL(`${merchant.url}/cancel?order=order-alipay-1`);
    expect(await statusOf(tx.id)).toBe('FAILED');
    await page.close();
  });
});

describe('without JavaScript: plain form posts', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext({ javaScriptEnabled: false });
  });
  afterAll(() => context?.close());

  it('card form', async () => {
    const tx = await checkoutTransaction('order-nojs-card');
    const page = await newPage(420, 860, context);
    await page.goto(tx.payment_url!);
    await fillCard(page, { number: '5555555555554444', expiry: '1230', code: '321' });
    await page.getByRole('button', { name: 'Pay 49.90 EUR' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-nojs-card`);
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
  });

  it('QR: "I have scanned and paid"', async () => {
    const tx = channelTransaction(sandbox, 'PROMPTPAY', 'THB', 5000, 'order-nojs-qr');
    const page = await newPage(420, 860, context);
    await page.goto(tx.url);
    expect(await page.locator('img.pay-qr-image').evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true);
    await page.getByRole('button', { name: 'I have scanned and paid' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-nojs-qr`);
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
  });

  it('wallet: Open, then Approve', async () => {
    const tx = channelTransaction(sandbox, 'WECHATPAY', 'CNY', 5000, 'order-nojs-wallet');
    const page = await newPage(420, 860, context);
    await page.goto(tx.url);
    await page.getByRole('link', { name: 'Open WeChat Pay' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${merchant.url}/return?order=order-nojs-wallet`);
    expect(await statusOf(tx.id)).toBe('SUCCEEDED');
  });
});

describe('pages that cannot be paid', () => {
  it('a finished payment says so, offers no Pay or Cancel, and a second POST is a 409 page that changes nothing', async () => {
    const tx = await checkoutTransaction('order-done-1');
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    // The settle's own webhook goes out after its answer: counted once it has arrived.
    await webhookOf(tx.id);
    const before = merchant.received.filter((w) => w.body.ll_transaction_id === tx.id).length;

    const page = await newPage();
    const response = await page.goto(tx.payment_url!);
    expect(response?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('This payment is already SUCCEEDED');
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Return to the merchant' }).getAttribute('href')).toBe(
      `${merchant.url}/return?order=order-done-1`,
    );
    await page.close();

    const again = await fetch(`${sandbox.url}/pay/${tx.id}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('This payment is already <span class="badge badge-ok">SUCCEEDED</span>');
    const pay = await fetch(`${sandbox.url}/pay/${tx.id}/pay`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ number: '4242424242424242', expiry: '12/30', security_code: '123' }),
    });
    expect(pay.status).toBe(409);
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
    await page.close();
    const post = await fetch(`${sandbox.url}/pay/nope/pay`, { method: 'POST', redirect: 'manual' });
    expect(post.status).toBe(404);
  });

  it('a direct-mode card transaction has no payment page', async () => {
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
    await page.close();
  });
});

describe('expiry after 24 hours of sandbox clock', () => {
  let own: RunningServer;
  beforeAll(async () => {
    own = await startServer({ port: 0 });
  });
  afterAll(() => own?.stop());

  it('payable just before 24 h; at 24 h the page says expired, the payment is FAILED with its webhook, and it cannot be paid (410)', async () => {
    const tx = channelTransaction(own, 'PIX', 'BRL', 1500, 'order-expiry-1');
    const card = channelTransaction(own, 'CARD', 'USD', 1500, 'order-expiry-2');
    await control(own.url, '/clock/advance', { method: 'POST', body: { seconds: 24 * 3600 - 1 } });
    expect((await fetch(tx.url)).status).toBe(200);
    expect(await statusOf(tx.id, own)).toBe('PENDING');

    await control(own.url, '/clock/advance', { method: 'POST', body: { seconds: 1 } });
    const page = await newPage(420, 860);
    const response = await page.goto(tx.url);
    expect(response?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('This payment link has expired');
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Return to the merchant' }).getAttribute('href')).toBe(
      `${merchant.url}/cancel?order=order-expiry-1`,
    );
    await shots(page, 'pay-expired');
    await page.close();
    expect(await statusOf(tx.id, own)).toBe('FAILED');
    expect((await webhookOf(tx.id)).body.payment_data).toMatchObject({ payment_status: 'FAILED' });

    const pay = await fetch(`${tx.url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(410);
    expect(await pay.text()).toContain('This payment link has expired');
    // A POST is what first notices the expiry of the other one: 410, FAILED.
    const cardPay = await fetch(`${card.url}/pay`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ number: '4242424242424242', expiry: '12/30', security_code: '123' }),
    });
    expect(cardPay.status).toBe(410);
    expect(await statusOf(card.id, own)).toBe('FAILED');
  });
});
