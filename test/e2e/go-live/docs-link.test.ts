/**
 * From a finding to its explanation, as a merchant clicks it: the sandbox started by its CLI
 * (`bin/payment-sandbox.js --port 0 --port-file`), a create without an Idempotency-Key, the
 * panel's Go-live view in headless Chromium; the finding's docs link opens the served
 * `/docs/go-live` page in a new tab, scrolled to that finding's entry. Screenshots of a served
 * page and of the opened entry go to test-artifacts/ (docs-webhooks.png, go-live-finding*.png).
 * Needs `npm run build` (the CLI bundle and dist/docs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { directPayment, headers } from '../../support/app.js';
import { launchBrowser, screenshot } from '../../support/browser.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir = '';
let child: ChildProcess | undefined;
let url = '';
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docs-link-'));
  const portFile = join(dir, 'port');
  child = spawn(process.execPath, [join(root, 'bin/payment-sandbox.js'), '--port', '0', '--port-file', portFile, '--quiet'], {
    stdio: 'ignore',
  });
  const exited = new Promise<never>((_, reject) => child!.once('exit', (code) => reject(new Error(`payment-sandbox exited ${code}`))));
  const ready = (async () => {
    const deadline = Date.now() + 20_000;
    while (!existsSync(portFile)) {
      if (Date.now() > deadline) throw new Error('payment-sandbox not ready in 20 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  await Promise.race([ready, exited]);
  url = `http://127.0.0.1:${readFileSync(portFile, 'utf8').trim()}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** Whether the element is inside the viewport's top half: where a followed anchor puts it. */
const nearTop = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    return top > -2 && top < window.innerHeight / 2; // sub-pixel above 0 once scrolled to it
  });

describe("a go-live finding's docs link, from the panel of the CLI's sandbox", () => {
  it('serves a guide (/docs/webhooks) with its navigation', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const res = await page.goto(`${url}/docs/webhooks`);
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1').first().textContent()).resolves.toMatch(/Webhooks/);
    await expect(page.locator('nav.docs-nav a[href="/docs/go-live"]').count()).resolves.toBe(1);
    await screenshot(page, 'docs-webhooks');
    await page.close();
  });

  it('opens /docs/go-live at the finding’s entry in a new tab', async () => {
    const created = await fetch(`${url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
    expect(created.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const panel = await context.newPage();
    await panel.goto(`${url}/#go-live`);
    const finding = panel.locator('#view-go-live [data-code="missing_idempotency_key"]');
    await finding.waitFor();
    const link = finding.locator('a[href^="/docs/"]').first();
    await expect(link.getAttribute('href')).resolves.toBe('/docs/go-live#missing_idempotency_key');
    await screenshot(panel, 'go-live-finding-panel');

    const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await docs.waitForLoadState('load');
    expect(new URL(docs.url()).pathname + new URL(docs.url()).hash).toBe('/docs/go-live#missing_idempotency_key');
    await expect(docs.evaluate(() => window.scrollY)).resolves.toBeGreaterThan(0);
    await expect(nearTop(docs, '[id="missing_idempotency_key"]')).resolves.toBe(true);
    // The entry's heading is on screen and nothing (a navigation bar) covers it.
    const heading = docs.locator('h4', { hasText: 'missing_idempotency_key' });
    await expect(
      heading.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return (
          box.top >= 0 && box.bottom <= window.innerHeight && el.contains(document.elementFromPoint(box.left + 5, box.top + box.height / 2))
        );
      }),
    ).resolves.toBe(true);
    await screenshot(docs, 'go-live-finding-docs');
    await context.close();
  });
});
