/**
 * The control panel in a real browser, against a real sandbox and a real merchant server
 * that verifies every webhook signature: changes made through the API appear without a
 * reload (server-sent events, no polling), and Settle, Fail, Refund, Resend, Cancel, the
 * clock and Reset act through the control API, showing the API's message when a call fails.
 * The buttons follow the server's allowed_actions and refundable_amount (the panel copies no
 * server rule), and the Credentials view offers the webhook key in each published form.
 * Screenshots of the main views are saved to test-artifacts/ at 1280×800 and 420 wide.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import {
  BROWSER_INFO,
  CARD,
  CHECKOUT,
  DIRECT,
  control,
  launchBrowser,
  merchantApi,
  screenshot,
  startMerchant,
  type MerchantServer,
  type TransactionRecord,
} from '../../support/browser.js';

let sandbox: RunningServer;
let merchant: MerchantServer;
let browser: Browser;
/** The panel tab a developer keeps open: most tests share it, as they would. */
let panel: Page;
const contexts: BrowserContext[] = [];
/** Every alert/confirm/prompt any page opened: merchant strings must never open one. */
const dialogs: string[] = [];
/** Uncaught errors in the panel's script. */
const pageErrors: string[] = [];

beforeAll(async () => {
  [sandbox, merchant, browser] = await Promise.all([startServer({ port: 0 }), startMerchant(), launchBrowser()]);
  panel = await openPanel();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await sandbox?.stop();
  await merchant?.close();
});

const direct = () => merchantApi(sandbox.url, DIRECT);
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 5000, interval: 50 });

/** Opens the panel (optionally on a view) and waits until it is live and loaded. */
async function openPanel(
  view = 'transactions',
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; clipboard?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    permissions: options.clipboard ? ['clipboard-read', 'clipboard-write'] : [],
  });
  contexts.push(context);
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${sandbox.url}/#${view}`);
  await page.locator('#live[data-state="live"]').waitFor();
  await page.locator('[data-nav="transactions"] .count:not(:empty)').waitFor();
  return page;
}

/** Shows a view of the shared panel tab by its link, as a developer would. */
async function show(view: string): Promise<Page> {
  await panel.locator(`[data-nav="${view}"]`).click();
  await panel.locator(`#view-${view}`).waitFor();
  return panel;
}

const txRow = (page: Page, id: string): Locator => page.locator(`#view-transactions [data-item="${id}"]`);
const deliveryRows = (page: Page): Locator => page.locator('#view-webhooks tbody.item');
const button = (scope: Locator | Page, name: string): Locator => scope.getByRole('button', { name, exact: true });
const statusOf = (row: Locator) => row.locator('.col-status .badge').textContent();

/** A direct-mode payment waiting for its outcome, whose webhooks go to the merchant server. */
function pendingPayment(reference: string, extra: Record<string, unknown> = {}): Promise<TransactionRecord> {
  return direct().createTransaction({
    amount: 1050,
    currency: 'USD',
    description: `Order ${reference}`,
    external_identifier: reference,
    notification_url: `${merchant.url}/webhooks`,
    ...extra,
  });
}

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

describe('control panel', () => {
  it('shows a transaction created through the API at once, without a reload, and polls nothing while idle', async () => {
    const page = await show('transactions');
    await page.evaluate(() => {
      document.body.dataset.e2eMarker = 'same page';
    });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.waitForTimeout(800);
    expect(requests).toEqual([]);

    const tx = await pendingPayment('order-live-1');
    const row = txRow(page, tx.id);
    await row.waitFor();
    expect(await statusOf(row)).toBe('PENDING');
    expect((await row.locator('.col-amount').textContent())?.trim()).toBe('10.50 USD');
    expect(await row.locator('.col-main').textContent()).toContain('order-live-1');
    expect(await page.evaluate(() => document.body.dataset.e2eMarker)).toBe('same page');
    expect(requests.some((url) => url.includes('/_sandbox/transactions'))).toBe(true);
  });

  it('Settle: the status changes, the merchant server receives the signed webhook, and the delivery appears with its headers', async () => {
    const page = await show('transactions');
    const tx = await pendingPayment('order-settle-1');
    const row = txRow(page, tx.id);
    await button(row, 'Settle').click();
    await poll(() => statusOf(row)).toBe('SUCCEEDED');
    expect(await button(row, 'Settle').isDisabled()).toBe(true);
    expect(await button(row, 'Fail').isDisabled()).toBe(true);
    expect(await button(row, 'Refund').isEnabled()).toBe(true);

    const webhook = await merchant.waitFor((w) => w.body.ll_transaction_id === tx.id);
    expect(webhook.verified).toBe(true);
    expect(webhook.body.merchant_transaction_id).toBe('order-settle-1');
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'SUCCEEDED', payment_amount: '10.50' });

    await page.getByRole('link', { name: /Webhooks/ }).click();
    const delivery = deliveryRows(page).filter({ hasText: 'order-settle-1' });
    await poll(() => delivery.locator('.col-status').textContent()).toBe('delivered');
    await button(delivery, 'Details').click();
    const signatureCell = delivery.locator('table.headers tr', { hasText: 'signature' }).locator('td');
    expect(await signatureCell.textContent()).toBe(webhook.headers.signature);
    expect(await delivery.locator('.attempt-head').textContent()).toContain('→ 200');
  });

  it('Fail: the status becomes FAILED and the FAILED webhook is sent; illegal actions are disabled', async () => {
    const page = await show('transactions');
    const tx = await pendingPayment('order-fail-1');
    const row = txRow(page, tx.id);
    await button(row, 'Fail').click();
    await poll(() => statusOf(row)).toBe('FAILED');
    for (const name of ['Settle', 'Fail', 'Refund']) expect(await button(row, name).isDisabled()).toBe(true);
    const webhook = await merchant.waitFor((w) => w.body.ll_transaction_id === tx.id);
    expect(webhook.verified).toBe(true);
    expect(webhook.body.payment_data).toMatchObject({ payment_status: 'FAILED' });
  });

  it('Refund an amount: the refunded amount shows and the signed refund webhook arrives', async () => {
    const page = await show('transactions');
    const tx = await pendingPayment('order-refund-1');
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    const row = txRow(page, tx.id);
    await poll(() => statusOf(row)).toBe('SUCCEEDED');

    await button(row, 'Refund').click();
    const amount = row.getByLabel('Refund amount (USD)');
    expect(await amount.inputValue()).toBe('10.50');
    await amount.fill('2.50');
    await button(row, 'Confirm refund').click();
    await poll(() => row.locator('.col-refunded').textContent()).toBe('2.50 USD');
    expect((await control<{ refunded_amount: number }>(sandbox.url, `/transactions/${tx.id}`)).body.refunded_amount).toBe(250);

    const refund = await merchant.waitFor((w) => w.body.original_transaction_id === 'order-refund-1');
    expect(refund.verified).toBe(true);
    expect(refund.body.refund_data).toMatchObject({ refund_amount: 250, refund_status: 'SUCCESS' });
    await screenshot(page, 'panel-transactions-1280');
  });

  it("a failed call shows the API's error message (refund over the remainder; a clock advance the API refuses)", async () => {
    const page = await show('transactions');
    const tx = await pendingPayment('order-overrefund-1');
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    const row = txRow(page, tx.id);
    await poll(() => statusOf(row)).toBe('SUCCEEDED');
    await button(row, 'Refund').click();
    await row.getByLabel('Refund amount (USD)').fill('99');
    await button(row, 'Confirm refund').click();
    const alert = row.getByRole('alert');
    await poll(() => alert.textContent()).toContain('The refund of 99.00 USD is more than the 10.50 USD left to refund');
    expect((await control<{ refunded_amount: number }>(sandbox.url, `/transactions/${tx.id}`)).body.refunded_amount).toBe(0);
    await screenshot(page, 'panel-refund-error-1280');

    await button(page, 'Custom…').click();
    await page.getByLabel('Advance by').fill('5000');
    await page.getByLabel('Unit').selectOption('days');
    await button(page, 'Advance').click();
    const toast = page.locator('#toasts').getByRole('alert');
    await poll(() => toast.textContent()).toContain('Could not advance the clock');
    expect(await toast.textContent()).toContain('Request failed validation');
    expect(await toast.textContent()).toContain('/seconds');
  });

  it('Resend: a failing delivery stands out, and Resend sends the same signed body again', async () => {
    const page = await show('webhooks');
    const tx = await pendingPayment('order-resend-1', { notification_url: `${merchant.url}/flaky` });
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    const delivery = deliveryRows(page).filter({ hasText: 'order-resend-1' });
    await poll(() => delivery.locator('.col-status').textContent()).toBe('retrying');
    expect(await delivery.locator('tr.row').getAttribute('class')).toContain('attention');
    expect(await delivery.locator('.col-answer').textContent()).toBe('HTTP 503');
    await poll(() => page.locator('[data-nav="webhooks"] .count-alert').textContent()).toBe('1 failing');
    await screenshot(page, 'panel-webhooks-failing-1280');

    await button(delivery, 'Resend').click();
    await poll(() => delivery.locator('.col-status').textContent()).toBe('delivered');
    expect(await delivery.locator('.col-count').textContent()).toBe('2');
    const sent = merchant.received.filter((w) => w.body.ll_transaction_id === tx.id);
    expect(sent).toHaveLength(2);
    expect(sent.every((w) => w.verified)).toBe(true);
    expect(sent[1]!.rawBody.equals(sent[0]!.rawBody)).toBe(true);

    await button(delivery, 'Details').click();
    await poll(() => delivery.locator('.attempt').count()).toBe(2);
    expect(await delivery.locator('.attempt-failed .attempt-error').textContent()).toBe('merchant answered HTTP 503');
    await screenshot(page, 'panel-webhooks-1280', true);
  });

  it('shows merchant strings as text: an HTML description and reference render literally and run nothing', async () => {
    const page = await show('transactions');
    const description = '<img src=x onerror=alert(1)>';
    const reference = `"><script>document.body.dataset.pwned='1'</script>`;
    const tx = await pendingPayment('xss', { description, external_identifier: reference });
    const row = txRow(page, tx.id);
    await row.waitFor();
    expect(await row.locator('.secondary-line').textContent()).toBe(description);
    expect(await row.locator('.primary-line').textContent()).toContain(reference);
    await button(row, 'Details').click();
    expect(await row.locator('pre.json').textContent()).toContain(JSON.stringify(description));
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
  });

  it('the request log shows method, path, status, idempotency key, replays, a lost answer and the validation details of a 400', async () => {
    const page = await show('requests');
    const api = direct();
    await api.post('/transactions', { amount: -5, currency: 'usd', payment_method: CARD, browser_info: BROWSER_INFO });
    const body = { amount: 700, currency: 'USD', payment_method: CARD, browser_info: BROWSER_INFO, external_identifier: 'order-idem-1' };
    await api.post('/transactions', body, { 'idempotency-key': 'idem-e2e-1' });
    await api.post('/transactions', body, { 'idempotency-key': 'idem-e2e-1' });
    // The create runs, then a fault hides its answer: the row says the client never got it.
    await api.post(
      '/transactions',
      { ...body, external_identifier: 'order-lost-1' },
      { 'idempotency-key': 'idem-e2e-lost', 'x-sandbox-fault': '503-after' },
    );

    const rows = page.locator('#view-requests tbody.item');
    const rejected = rows.filter({ hasText: '400' }).first();
    await rejected.waitFor();
    const text = await rejected.textContent();
    expect(text).toContain('POST');
    expect(text).toContain('/v4/transactions');
    expect(text).toContain('Request failed validation');
    expect(text).toContain('/amount');
    expect(text).toContain('/currency');
    const keyed = rows.filter({ hasText: 'idem-e2e-1' });
    await poll(() => keyed.count()).toBe(2);
    expect(await keyed.first().textContent()).toContain('replayed');
    expect(await keyed.last().textContent()).not.toContain('replayed');
    await poll(() => rows.filter({ hasText: 'idem-e2e-lost' }).locator('.answer-lost[title]').count()).toBe(1);
    await screenshot(page, 'panel-requests-1280');
  });

  it('the clock advances by a month and a subscription renews on screen', async () => {
    const page = await show('subscriptions');
    const created = await direct().post(
      '/subscriptions',
      {
        external_identifier: 'sub-e2e-1',
        amount: 999,
        currency: 'USD',
        customer: { email_address: 'jane@example.com', display_name: 'Jane Doe' },
        plan: { name: 'Pro', currency: 'USD', amount: 999, interval: 'month', interval_time: 1 },
        payment_method: { ...CARD, webhooks_url: `${merchant.url}/webhooks` },
        browser_info: BROWSER_INFO,
      },
      { 'x-forwarded-for': '203.0.113.7' },
    );
    expect(created.status).toBe(201);
    const row = page.locator(`#view-subscriptions [data-item="${String(created.body.id)}"]`);
    await row.waitFor();
    await poll(() => statusOf(row)).toBe('active');
    expect(await row.locator('.charge-count').textContent()).toBe('1');
    const firstBilling = await row.locator('.next-billing').textContent();

    await button(page, '+1 month').click();
    await poll(() => row.locator('.charge-count').textContent()).toBe('2');
    await poll(() => row.locator('.next-billing').textContent()).not.toBe(firstBilling);
    expect(await statusOf(row)).toBe('active');
    await poll(() => page.locator('#clock-offset').textContent()).toMatch(/^\+\d+d/);

    await button(row, 'Details').click();
    expect(await row.locator('.charges li').count()).toBe(2);
    await screenshot(page, 'panel-subscriptions-1280');

    await button(row, 'Cancel').click();
    await poll(() => statusOf(row)).toBe('cancelled');
    expect(await button(row, 'Cancel').isDisabled()).toBe(true);
  });

  it('is keyboard usable: Enter on a focused Settle settles and focus stays in the row', async () => {
    const page = await show('transactions');
    const tx = await pendingPayment('order-keyboard-1');
    const row = txRow(page, tx.id);
    await button(row, 'Settle').focus();
    await page.keyboard.press('Enter');
    await poll(() => statusOf(row)).toBe('SUCCEEDED');
    await poll(() => page.evaluate(() => document.activeElement?.closest('[data-item]')?.getAttribute('data-item') ?? null)).toBe(tx.id);
    await button(row, 'Details').focus();
    await page.keyboard.press('Enter');
    expect(await button(row, 'Details').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-item]') !== null)).toBe(true);
  });

  it('the account switcher shows each account its own data, amounts in ISO 4217 major units; checkout transactions link their payment page', async () => {
    const page = await show('transactions');
    await page.getByLabel('Account', { exact: true }).selectOption(CHECKOUT.account_id);
    await poll(() => page.locator('#account-id').textContent()).toBe(CHECKOUT.account_id);
    // IQD has 3 decimals in ISO 4217 (the browser's Intl data says 0): the panel uses the sandbox's table.
    const tx = await merchantApi(sandbox.url, CHECKOUT).createTransaction({
      amount: 1050,
      currency: 'IQD',
      external_identifier: 'order-iqd-1',
      return_url: `${merchant.url}/return`,
    });
    const row = txRow(page, tx.id);
    await row.waitFor();
    expect((await row.locator('.col-amount').textContent())?.trim()).toBe('1.050 IQD');
    expect(await page.locator('#view-transactions').textContent()).not.toContain('order-settle-1');
    await button(row, 'Details').click();
    expect(await row.getByRole('link', { name: tx.payment_url! }).getAttribute('href')).toBe(tx.payment_url);
    await page.getByLabel('Account', { exact: true }).selectOption(DIRECT.account_id);
    await poll(() => page.locator('#account-id').textContent()).toBe(DIRECT.account_id);
  });

  it("the clock shows and advances the selected account's own clock, and its rate limit and latency", async () => {
    const page = await show('transactions');
    const before = await page.locator('#clock-offset').textContent();
    const created = await control<{ account_id: string }>(sandbox.url, '/accounts', {
      method: 'POST',
      body: { mode: 'direct', name: 'own clock' },
    });
    const advanced = await control(sandbox.url, `/accounts/${created.body.account_id}/clock/advance`, {
      method: 'POST',
      body: { seconds: 400 * 86_400 },
    });
    expect(advanced.status).toBe(200);
    const ownOffset = (await control<{ offset_seconds: number }>(sandbox.url, `/accounts/${created.body.account_id}/clock`)).body;
    await poll(() => page.locator(`#account option[value="${created.body.account_id}"]`).count()).toBe(1);
    await page.getByLabel('Account', { exact: true }).selectOption(created.body.account_id);
    await poll(() => page.locator('#account-id').textContent()).toBe(created.body.account_id);
    // Over 400 days ahead: this account's clock, not the sandbox clock the other accounts read.
    await poll(() => page.locator('#clock-offset').textContent()).toMatch(
      new RegExp(`^\\+${Math.floor(ownOffset.offset_seconds / 86_400)}d`),
    );
    // Its load rehearsal, set over the control API, shows at once (the change feed).
    await control(sandbox.url, `/accounts/${created.body.account_id}`, {
      method: 'PATCH',
      body: { rate_limit: 7, latency: 'p50=80,p99=900' },
    });
    await poll(() => page.locator('#account-load').textContent()).toBe('429 over 7 req/s · latency p50 80 ms, p99 900 ms');
    await screenshot(page, 'panel-account-clock-1280');
    // The clock's buttons advance the selected account's own clock: the sandbox clock stays.
    const sandboxClock = (await control<{ offset_seconds: number }>(sandbox.url, '/clock')).body.offset_seconds;
    await button(page, '+1 day').click();
    await poll(
      async () =>
        (await control<{ offset_seconds: number }>(sandbox.url, `/accounts/${created.body.account_id}/clock`)).body.offset_seconds,
    ).toBeGreaterThanOrEqual(ownOffset.offset_seconds + 86_400);
    expect((await control<{ offset_seconds: number }>(sandbox.url, '/clock')).body.offset_seconds).toBe(sandboxClock);
    await page.getByLabel('Account', { exact: true }).selectOption(DIRECT.account_id);
    await poll(() => page.locator('#account-id').textContent()).toBe(DIRECT.account_id);
    await poll(() => page.locator('#clock-offset').textContent()).toBe(before);
    await poll(() => page.locator('#account-load').textContent()).toBe('no rate limit · no added latency');
  });

  it('credentials have working copy buttons; the scenarios are listed', async () => {
    const page = await openPanel('credentials', { clipboard: true });
    await button(page, 'Copy direct API key').click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(DIRECT.api_key);
    await button(page, 'Copy checkout account id').click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(CHECKOUT.account_id);
    await screenshot(page, 'panel-credentials-1280', true);

    await page.getByRole('link', { name: /Scenarios/ }).click();
    await poll(() => page.locator('#view-scenarios').textContent()).toContain('card 4242424242424242 succeeds');
    await screenshot(page, 'panel-scenarios-1280', true);
  });

  it('the webhook public key is offered as PEM, base64 DER, JWK and X.509, each copied exactly as the control API serves it', async () => {
    const page = await openPanel('credentials', { clipboard: true });
    const keyAs = async (format: string) => (await fetch(`${sandbox.url}/_sandbox/webhook-public-key?format=${format}`)).text();
    for (const [format, title] of [
      ['pem', 'PEM (SPKI)'],
      ['der', 'DER, base64'],
      ['jwk', 'JWK'],
      ['x509', 'X.509 certificate'],
    ] as const) {
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await button(page, `Copy webhook public key as ${title}`).click();
      await poll(() => page.evaluate(() => navigator.clipboard.readText())).not.toBe('');
      const text = await page.evaluate(() => navigator.clipboard.readText());
      if (format === 'jwk') expect(JSON.parse(text)).toEqual(JSON.parse(await keyAs('jwk')));
      else expect(text).toBe(await keyAs(format));
    }
    await page.locator('.key-form[data-format="x509"] summary').click();
    expect(await page.locator('.key-form[data-format="x509"] pre').textContent()).toContain('BEGIN CERTIFICATE');
    await screenshot(page, 'panel-credentials-keys-1280', true);
  });

  it("the buttons follow the server's allowed_actions and the refund form starts at its refundable_amount", async () => {
    const page = await show('transactions');
    const tx = await pendingPayment('order-allowed-1');
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    await control(sandbox.url, `/transactions/${tx.id}/refund`, { method: 'POST', body: { amount: 250 } });
    const row = txRow(page, tx.id);
    await poll(() => row.locator('.col-refunded').textContent()).toBe('2.50 USD');
    // SUCCEEDED with a remainder: Refund, not Settle or Fail.
    expect(await button(row, 'Settle').isDisabled()).toBe(true);
    expect(await button(row, 'Fail').isDisabled()).toBe(true);
    expect(await button(row, 'Refund').isEnabled()).toBe(true);
    await button(row, 'Refund').click();
    expect(await row.getByLabel('Refund amount (USD)').inputValue()).toBe('8.00');
    expect(await row.locator('.form-row .hint').textContent()).toBe('8.00 USD left to refund');
    await button(row, 'Close').click();

    // The panel computes none of it: a second tab whose control API answers are rewritten
    // shows what the server says (here: Settle allowed on a SUCCEEDED transaction, 1.00 refundable).
    const other = await openPanel('transactions');
    await other.route(/\/_sandbox\/transactions\?/, async (route) => {
      const response = await route.fetch();
      const page = (await response.json()) as { items: Array<Record<string, unknown>> };
      for (const item of page.items)
        if (item.id === tx.id) Object.assign(item, { allowed_actions: ['settle', 'refund'], refundable_amount: 100 });
      await route.fulfill({ response, json: page });
    });
    await other.reload();
    const rewritten = txRow(other, tx.id);
    await rewritten.waitFor();
    expect(await statusOf(rewritten)).toBe('SUCCEEDED');
    expect(await button(rewritten, 'Settle').isEnabled()).toBe(true);
    expect(await button(rewritten, 'Fail').isDisabled()).toBe(true);
    await button(rewritten, 'Refund').click();
    expect(await rewritten.getByLabel('Refund amount (USD)').inputValue()).toBe('1.00');
    await other.context().close();
  });

  it('looks right at 1280×800, on a narrow window and in dark mode (screenshots)', async () => {
    const wide = await openPanel('transactions', { colorScheme: 'dark' });
    await screenshot(wide, 'panel-transactions-dark-1280');
    const narrow = await openPanel('transactions', { width: 420, height: 900 });
    await screenshot(narrow, 'panel-transactions-420', true);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
    await narrow.getByRole('link', { name: /Webhooks/ }).click();
    await deliveryRows(narrow).first().waitFor();
    await button(deliveryRows(narrow).first(), 'Details').click();
    await screenshot(narrow, 'panel-webhooks-420', true);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
    await narrow.getByRole('link', { name: /API requests/ }).click();
    await screenshot(narrow, 'panel-requests-420', true);
  });

  it('Reset asks first, then empties everything and shows a ready curl command that works', async () => {
    const page = await show('transactions');
    expect(await page.locator('#view-transactions tbody.item').count()).toBeGreaterThan(0);
    await button(page, 'Reset').click();
    await button(page, 'Keep data').click();
    expect(await page.locator('#view-transactions tbody.item').count()).toBeGreaterThan(0);

    await button(page, 'Reset').click();
    await button(page, 'Reset everything').click();
    const empty = page.locator('#view-transactions .empty');
    await poll(() => empty.isVisible()).toBe(true);
    const command = (await empty.locator('pre').textContent()) ?? '';
    expect(command).toContain(`Authorization: Bearer ${DIRECT.api_key}`);
    expect(command).toContain(`X-MERCHANT-ACCOUNT-ID: ${DIRECT.account_id}`);
    expect(command).toContain(`${sandbox.url}/v4/transactions`);
    await screenshot(page, 'panel-empty-1280');

    // The command's body is what a merchant would paste: it creates a transaction.
    const body = JSON.parse(/-d '([\s\S]*)'$/.exec(command)![1]!) as Record<string, unknown>;
    const created = await direct().post('/transactions', body);
    expect(created.status).toBe(201);
    await txRow(page, String(created.body.id)).waitFor();
  });
});
