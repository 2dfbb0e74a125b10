/**
 * In headless Chromium against a real sandbox: the panel's "New payment" form creates a
 * payment for the selected account (amount, currency, a card from the scenarios' magic
 * values), the row appears in the transactions table with Settle and Fail, and Settle sends
 * its webhook; the Webhooks view's check form suggests the sandbox's --notification-url; and
 * the served docs' search box finds a section as the reader types and opens its page at the
 * heading. Screenshots: test-artifacts/panel-new-payment-1280.png, docs-search-1280.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { control, launchBrowser, screenshot, startMerchant, type MerchantServer } from '../../support/browser.js';

let sandbox: RunningServer;
let merchant: MerchantServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  merchant = await startMerchant();
  [sandbox, browser] = await Promise.all([startServer({ port: 0, notificationUrl: `${merchant.url}/webhooks` }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await merchant?.close();
});

async function open(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${sandbox.url}${path}`);
  return page;
}

describe('panel: New payment', () => {
  it('creates a payment from the form; its row appears with Settle and Fail; Settle sends the webhook', async () => {
    const page = await open('/#transactions');
    await page.locator('#live[data-state="live"]').waitFor();
    const form = page.getByRole('form', { name: 'New payment' });
    await expect.poll(() => form.getByLabel('Card (magic values)').locator('option').count()).toBeGreaterThan(3);
    const options = await form.getByLabel('Card (magic values)').locator('option').allTextContents();
    expect(options[0]).toMatch(/^4111 1111 1111 1111: no rule, stays PENDING/);
    expect(options.some((o) => o.startsWith('4000 0000 0000 0002:'))).toBe(true);

    await form.getByLabel('Amount').fill('12.34');
    await form.getByLabel('Currency').fill('eur');
    await form.getByLabel('Card (magic values)').selectOption('4111111111111111');
    await form.getByRole('button', { name: 'Create payment' }).click();
    await form.getByText(/^Created [0-9a-f-]{36}: PENDING\.$/).waitFor();
    const id = /Created ([0-9a-f-]{36})/.exec((await form.locator('.new-payment-message').textContent())!)![1]!;

    const row = page.locator(`tbody[data-item="${id}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('12.34');
    await expect.poll(() => row.getByRole('button', { name: /^Settle/ }).isEnabled()).toBe(true);
    expect(await row.getByRole('button', { name: /^Fail/ }).isEnabled()).toBe(true);
    await screenshot(page, 'panel-new-payment-1280');

    const created = await control<{ status: string; amount: number; currency: string }>(sandbox.url, `/transactions/${id}`);
    expect(created.body).toMatchObject({ status: 'PENDING', amount: 1234, currency: 'EUR' });
    await row.getByRole('button', { name: /^Settle/ }).click();
    const hook = await merchant.waitFor((w) => w.body.ll_transaction_id === id);
    expect(hook.verified).toBe(true);

    // A magic card: declined at once, and the form says so.
    await form.getByLabel('Card (magic values)').selectOption('4000000000000002');
    await form.getByRole('button', { name: 'Create payment' }).click();
    await form.getByText(/: FAILED\.$/).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("suggests the sandbox's --notification-url in the check form", async () => {
    const page = await open('/#webhooks');
    await page.locator('#live[data-state="live"]').waitFor();
    await expect.poll(() => page.locator('#check-webhooks-url').getAttribute('placeholder')).toBe(`${merchant.url}/webhooks`);
  });
});

describe('docs: search', () => {
  it('lists sections as the reader types; a result opens its page at the heading; code blocks get a Copy button', async () => {
    const page = await open('/docs/ci');
    expect(await page.locator('.docs-page pre').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.docs-page .copy-button').count()).toBe(await page.locator('.docs-page pre').count());
    await page.getByLabel('Search the docs').fill('refund webhook original');
    const result = page.locator('#docs-search-results a').first();
    await result.waitFor();
    expect(await result.getAttribute('href')).toBe('/docs/api#refunds-and-their-webhook');
    await screenshot(page, 'docs-search-1280');
    await result.click();
    await page.waitForURL(`${sandbox.url}/docs/api#refunds-and-their-webhook`);
    expect(await page.locator('h1').textContent()).toBe('The API');
    expect(pageErrors).toEqual([]);
  });
});
