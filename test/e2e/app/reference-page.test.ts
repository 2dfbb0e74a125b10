/**
 * The API reference page in a real browser: /reference renders /openapi.json with Redoc's
 * bundle served by the sandbox itself, so it works offline. The page makes no request to
 * another origin and breaks none of its Content-Security-Policy; the panel links to it.
 * Screenshot: test-artifacts/reference.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { launchBrowser, screenshot } from '../../support/browser.js';

let sandbox: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [sandbox, browser] = await Promise.all([startServer({ port: 0, ticker: false }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

/** A page that records what it asked for off the sandbox's origin, and its console errors. */
async function watchedPage(): Promise<{ page: Page; foreign: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(sandbox.url) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return { page, foreign, errors };
}

describe('GET /reference', () => {
  it('renders the operations and webhooks of /openapi.json from the local Redoc bundle, offline', { timeout: 120_000 }, async () => {
    const { page, foreign, errors } = await watchedPage();
    const res = await page.goto(`${sandbox.url}/reference`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");

    // Operation names rendered as headings: an API operation, a webhook, a control operation.
    await page.locator('h2', { hasText: 'Create a transaction (PENDING until its outcome)' }).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.locator('h2', { hasText: 'Payment webhook: a payment reached SUCCEEDED or FAILED' }).count())
      .toBeGreaterThan(0);
    await expect.poll(() => page.locator('h2', { hasText: 'Ready check' }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('h1').first().textContent()).toContain('payment-sandbox');
    // An operation's full URL is its server's (<base>/v4 for the API, <base> for the control API) and its relative path.
    await page.locator('button', { hasText: '/transactions' }).first().click();
    await expect.poll(() => page.getByText(`${sandbox.url}/v4/transactions`, { exact: false }).count()).toBeGreaterThan(0);
    await screenshot(page, 'reference');

    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves the bundle from the package, and the panel links to the page', async () => {
    const script = await fetch(`${sandbox.url}/reference/redoc.standalone.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.text()).length).toBeGreaterThan(100_000);

    const { page } = await watchedPage();
    await page.goto(`${sandbox.url}/`);
    // the sidebar's link (the Go-live view's coverage may link there too, for api_fault)
    await expect.poll(() => page.locator('a.side-link[href="/reference"]').count()).toBe(1);
    await page.close();
  });
});
