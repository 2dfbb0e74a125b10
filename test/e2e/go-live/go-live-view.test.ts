/**
 * The panel's Go-live view in Chromium against a real sandbox: it updates live as the
 * merchant's traffic comes in (the change feed, no reload), shows the careless merchant's
 * findings with their fixes, opens each piece of evidence in the request and delivery logs,
 * and shows the coverage as a checklist with how to exercise what is missing. Screenshots go
 * to test-artifacts/go-live*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Journeys of many requests and webhooks: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { launchBrowser, screenshot } from '../../support/browser.js';
import { carelessJourney, type CarelessResult } from '../../support/go-live-journeys.js';
import { directPayment } from '../../support/app.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';

let sandbox: RunningSandbox;
let receiver: Receiver;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  [sandbox, receiver, browser] = await Promise.all([
    startSandbox({ ticker: false, deliveryTimeoutMs: 2000 }),
    startReceiver(),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await receiver?.close();
});

const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 8000, interval: 50 });

describe('the Go-live view', () => {
  let run: CarelessResult;

  it('updates live: a create without a key appears as a finding without a reload', async () => {
    await page.goto(`${sandbox.url}/#go-live`);
    await page.locator('#live[data-state="live"]').waitFor();
    const view = page.locator('#view-go-live');
    await view.locator('.go-live-summary').waitFor();
    await expect(view.locator('.empty-title').textContent()).resolves.toBe('No findings');
    const { direct } = sandbox.credentials;
    const res = await fetch(`${sandbox.apiUrl}/transactions`, {
      method: 'POST',
      headers: { ...direct.headers, 'content-type': 'application/json' },
      body: JSON.stringify(directPayment({ notification_url: receiver.url })),
    });
    expect(res.status).toBe(201);
    await poll(() => view.locator('[data-code="missing_idempotency_key"]').count()).toBe(1);
    await poll(() => view.locator('[data-count="warnings"] strong').textContent()).toBe('1');
    await poll(() => page.locator('[data-nav="go-live"] .count').textContent()).toBe('1');
  });

  it("shows the careless merchant's findings, errors first, each with its fix and evidence", async () => {
    run = await carelessJourney(sandbox.url, receiver);
    await page.locator('#account').selectOption(run.account.account_id);
    const view = page.locator('#view-go-live');
    // Card data was the checkout account's; a live key without an account is in every account's report.
    await poll(() => view.locator('.finding').count()).toBe(16);
    const codes = await view.locator('.finding').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.code));
    expect(codes.slice(0, 7)).toEqual([
      'duplicate_charge_risk',
      'duplicate_refund_risk',
      'live_key_used',
      'live_key_used',
      'webhook_signature_not_verified',
      'webhook_timeout',
      'webhook_unreachable',
    ]);
    expect(codes.at(-1)).toBe('polling_instead_of_webhooks');
    await expect(view.locator('[data-count="errors"] strong').textContent()).resolves.toBe('7');
    await expect(view.locator('.go-live-verdict').textContent()).resolves.toContain('Not ready');
    const duplicate = view.locator('[data-code="duplicate_charge_risk"]');
    await expect(duplicate.locator('.finding-fix').textContent()).resolves.toContain('reuse it on every retry');
    await expect(duplicate.locator('[data-evidence^="transactions:"]').count()).resolves.toBe(6);
    await expect(page.locator('[data-nav="go-live"] .count-alert').textContent()).resolves.toBe('7 errors');
    // Coverage: a checklist; what is missing says how, with a link to where it is done.
    const seen = await view.locator('.coverage-item.seen').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.scenario));
    expect(seen.sort()).toEqual(['api_fault', 'partial_refund', 'payment_succeeded', 'refund', 'webhook_bad_signature']);
    const failed = view.locator('[data-scenario="payment_failed"]');
    await expect(failed.locator('.coverage-how').textContent()).resolves.toContain('/_sandbox/transactions/{id}/fail');
    await expect(failed.locator('.coverage-how > a').getAttribute('href')).resolves.toBe('#transactions');
    await expect(view.locator('[data-scenario="api_fault"] .coverage-how').count()).resolves.toBe(0);
    await screenshot(page, 'go-live', true);
    expect(pageErrors).toEqual([]);
  });

  it('opens a request of the evidence in the request log, and a delivery in the delivery log', async () => {
    const view = page.locator('#view-go-live');
    const invalid = view.locator('[data-code="repeated_invalid_request"] [data-evidence^="requests:"]').first();
    const requestId = (await invalid.getAttribute('data-evidence'))!.slice('requests:'.length);
    await invalid.click();
    await poll(() => page.evaluate(() => window.location.hash)).toBe('#requests');
    const item = page.locator(`#view-requests [data-item="${requestId}"]`);
    await item.locator('.detail-row').waitFor();
    await expect(item.locator('.status-code').textContent()).resolves.toBe('400');
    await expect(item.textContent()).resolves.toContain('currency');

    await page.locator('[data-nav="go-live"]').click();
    const delivery = view.locator('[data-code="webhook_signature_not_verified"] [data-evidence^="deliveries:"]').first();
    const deliveryId = (await delivery.getAttribute('data-evidence'))!.slice('deliveries:'.length);
    await delivery.click();
    await poll(() => page.evaluate(() => window.location.hash)).toBe('#webhooks');
    await page.locator(`#view-webhooks [data-item="${deliveryId}"] .detail-row`).waitFor();
    // The delivery's attempts load after its detail opens ("Loading 1 attempt…").
    await poll(() => page.locator(`#view-webhooks [data-item="${deliveryId}"]`).textContent()).toMatch(/bad.signature/i);

    await page.locator('[data-nav="go-live"]').click();
    const transaction = view.locator('[data-code="polling_instead_of_webhooks"] [data-evidence^="transactions:"]').first();
    await transaction.click();
    await poll(() => page.evaluate(() => window.location.hash)).toBe('#transactions');
    await page.locator(`#view-transactions [data-item="${run.polled}"]`).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('is emptied by Reset', async () => {
    await page.locator('[data-nav="go-live"]').click();
    await sandbox.reset();
    const view = page.locator('#view-go-live');
    await poll(() => view.locator('.finding').count()).toBe(0);
    await poll(() => view.locator('.empty-title').textContent()).toBe('No findings');
    await screenshot(page, 'go-live-empty');
  });
});
