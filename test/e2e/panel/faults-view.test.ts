/**
 * The panel's fault tools in a real browser: the Webhook faults buttons of a
 * transaction's details queue a duplicate the merchant server really receives, and the
 * webhooks view's check-webhooks form runs the battery against a sample handler and shows
 * the report case by case, with the cases that need orders the shop created marked as such.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { badHandler, goodHandler, shopHandler, type SampleHandler, type ShopHandler } from '../../support/webhook-handlers.js';
import { DIRECT, control, launchBrowser, merchantApi, startMerchant, type MerchantServer } from '../../support/browser.js';

let sandbox: RunningServer;
let merchant: MerchantServer;
let browser: Browser;
let page: Page;
let good: SampleHandler;
let bad: SampleHandler;
let shop: ShopHandler;
const pageErrors: string[] = [];

beforeAll(async () => {
  [sandbox, merchant, browser, good, bad, shop] = await Promise.all([
    startServer({ port: 0 }),
    startMerchant(),
    launchBrowser(),
    goodHandler(),
    badHandler(),
    shopHandler(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await merchant?.close();
  await good?.close();
  await bad?.close();
  await shop?.close();
});

describe('panel: faults', () => {
  it('Duplicate in a settled transaction’s details sends its payment webhook once more', async () => {
    const tx = await merchantApi(sandbox.url, DIRECT).createTransaction({
      amount: 2100,
      currency: 'USD',
      external_identifier: 'fault-dup',
      notification_url: `${merchant.url}/webhooks`,
    });
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    const first = await merchant.waitFor((w) => w.body.ll_transaction_id === tx.id);

    await page.goto(`${sandbox.url}/#transactions`);
    await page.locator('#live[data-state="live"]').waitFor();
    const row = page.locator(`#view-transactions [data-item="${tx.id}"]`);
    await row.getByRole('button', { name: 'Details', exact: true }).click();
    expect(await row.getByRole('button', { name: 'Refund before payment', exact: true }).isDisabled()).toBe(true); // no refund yet
    await row.getByRole('button', { name: 'Duplicate', exact: true }).click();

    await expect.poll(() => merchant.received.filter((w) => w.rawBody.equals(first.rawBody)).length, { timeout: 10_000 }).toBe(2);
    expect(merchant.received.filter((w) => w.rawBody.equals(first.rawBody)).every((w) => w.verified)).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('the check-webhooks form reports a good handler as passing and a bad one case by case', async () => {
    await page.goto(`${sandbox.url}/#webhooks`);
    await page.locator('#live[data-state="live"]').waitFor();
    const form = page.getByRole('form', { name: 'Check a webhook handler' });
    await form.getByLabel('Check your webhook handler').fill(good.url);
    await form.getByRole('button', { name: 'Check handler' }).click();
    await expect.poll(() => form.locator('.check-report .ok-text').textContent(), { timeout: 30_000 }).toMatch(/All \d+ checks passed/);

    await form.getByLabel('Check your webhook handler').fill(bad.url);
    await form.getByRole('button', { name: 'Check handler' }).click();
    await expect.poll(() => form.locator('.check-report .error-text').textContent(), { timeout: 30_000 }).toMatch(/checks failed/);
    expect(await form.locator('.check-list li').count()).toBeGreaterThan(3);
    expect(pageErrors).toEqual([]);
  });

  it('the check-webhooks form marks the cases that need orders the shop created, and passes them with its orders', async () => {
    await page.goto(`${sandbox.url}/#webhooks`);
    await page.locator('#live[data-state="live"]').waitFor();
    const form = page.getByRole('form', { name: 'Check a webhook handler' });
    await form.getByLabel('Check your webhook handler').fill(shop.url);
    await form.getByLabel('State URL of your test build (optional)').fill(shop.url.replace(/\/webhooks$/, '/orders'));
    await form.getByRole('button', { name: 'Check handler' }).click();
    await expect
      .poll(() => form.locator('.check-report .warn-text').textContent(), { timeout: 30_000 })
      .toMatch(/^0 of \d+ checks failed for .*\. 9 of \d+ need orders your shop created \(not failures\)\.$/);
    expect(await form.locator('[data-check="intermediate_status"] .badge').textContent()).toBe('needs orders');

    const orders = Array.from({ length: 9 }, (_, i) => `panel-order-${i}`);
    for (const o of orders) shop.createOrder(o);
    await form.getByLabel(/Pending orders your shop created/).fill(orders.join(', '));
    await form.getByRole('button', { name: 'Check handler' }).click();
    await expect.poll(() => form.locator('.check-report .ok-text').textContent(), { timeout: 30_000 }).toMatch(/All \d+ checks passed/);
    expect(pageErrors).toEqual([]);
  });
});
