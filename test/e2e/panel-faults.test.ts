/**
 * The panel's fault tools in a real browser: the Webhook faults buttons of a
 * transaction's details queue a duplicate the merchant server really receives, and the
 * webhooks view's check-webhooks form runs the battery against a sample handler and shows
 * the report case by case.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { badHandler, goodHandler, type SampleHandler } from '../support/webhook-handlers.js';
import { DIRECT, control, launchBrowser, merchantApi, startMerchant, type MerchantServer } from '../support/browser.js';

let sandbox: RunningServer;
let merchant: MerchantServer;
let browser: Browser;
let page: Page;
let good: SampleHandler;
let bad: SampleHandler;
const pageErrors: string[] = [];

beforeAll(async () => {
  [sandbox, merchant, browser, good, bad] = await Promise.all([
    startServer({ port: 0 }),
    startMerchant(),
    launchBrowser(),
    goodHandler(),
    badHandler(),
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
});
