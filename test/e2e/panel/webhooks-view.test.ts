/**
 * The panel's Webhooks view in a real browser against a handler that answers a 100 KB error
 * page: the list it downloads carries no attempt bodies, and opening a delivery fetches it
 * and shows the merchant's answer (its first 4 KiB, marked as cut). A webhook canary is
 * marked as one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT, control, launchBrowser, merchantApi } from '../../support/browser.js';
import { startReceiver } from '../../support/receiver.js';

let sandbox: RunningServer;
let browser: Browser;
let handler: Server;
let handlerUrl: string;
let page: Page;
const pageErrors: string[] = [];

/** The start of the handler's error page, and a line far past 4 KiB that must never reach the panel. */
const PAGE_HEAD = '<html><body><h1>502 Bad Gateway from the merchant</h1>';
const PAGE_TAIL_MARK = 'TAIL-OF-THE-ERROR-PAGE';
const ERROR_PAGE = `${PAGE_HEAD}${'<p>padding padding padding padding</p>\n'.repeat(2600)}${PAGE_TAIL_MARK}</body></html>`;

beforeAll(async () => {
  handler = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(502, { 'content-type': 'text/html' }).end(ERROR_PAGE));
  });
  await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
  handlerUrl = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/webhooks`;
  [sandbox, browser] = await Promise.all([startServer({ port: 0 }), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await new Promise((resolve) => handler?.close(resolve));
});

describe('panel: the Webhooks view with large merchant answers', () => {
  it('the list downloads no attempt bodies; an opened delivery shows its attempt body, fetched on opening', async () => {
    expect(ERROR_PAGE.length).toBeGreaterThan(100_000);
    const tx = await merchantApi(sandbox.url, DIRECT).createTransaction({
      amount: 2100,
      currency: 'USD',
      external_identifier: 'big-answer-1',
      notification_url: handlerUrl,
    });
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    await expect
      .poll(
        async () => (await control<{ items: { attempts_count: number }[] }>(sandbox.url, '/deliveries')).body.items[0]?.attempts_count ?? 0,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);

    const lists: { url: string; size: number }[] = [];
    const opened: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      // A list still loading when the page closes has no body to read: it is not counted.
      if (url.pathname === '/_sandbox/deliveries')
        void response.body().then(
          (b) => lists.push({ url: url.href, size: b.length }),
          () => undefined,
        );
      if (url.pathname.startsWith('/_sandbox/deliveries/')) opened.push(url.pathname);
    });
    await page.goto(`${sandbox.url}/#webhooks`);
    await page.locator('#live[data-state="live"]').waitFor();
    const delivery = page.locator('#view-webhooks tbody.item').filter({ hasText: 'big-answer-1' });
    await delivery.waitFor();
    expect(await delivery.locator('.col-answer').textContent()).toBe('HTTP 502');
    await expect.poll(() => lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list.size, list.url).toBeLessThan(16 * 1024);
    expect(opened).toEqual([]);

    await delivery.getByRole('button', { name: 'Details', exact: true }).click();
    const response = delivery.getByRole('region', { name: 'Attempt 1 response' });
    await expect.poll(() => response.textContent(), { timeout: 5000 }).toContain('502 Bad Gateway from the merchant');
    const shown = (await response.textContent()) ?? '';
    expect(shown).toContain('[cut: the sandbox keeps the first 4096 of');
    expect(shown).not.toContain(PAGE_TAIL_MARK);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^\/_sandbox\/deliveries\/[^/]+$/);
    expect(await delivery.locator('table.headers tr', { hasText: 'signature' }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});

describe('panel: a webhook canary in the Webhooks view', () => {
  it('is marked as a canary, beside the real delivery it copies', async () => {
    const receiver = await startReceiver(); // acknowledges everything: the canary too
    try {
      await control(sandbox.url, `/accounts/${DIRECT.account_id}`, { method: 'PATCH', body: { webhook_canary: true } });
      const tx = await merchantApi(sandbox.url, DIRECT).createTransaction({
        amount: 2200,
        currency: 'USD',
        external_identifier: 'canary-1',
        notification_url: receiver.url,
      });
      await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
      await receiver.waitFor(2);
      await page.goto(`${sandbox.url}/#webhooks`);
      await page.locator('#live[data-state="live"]').waitFor();
      const rows = page.locator('#view-webhooks tbody.item').filter({ hasText: 'canary-1' });
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
      const marked = rows.filter({ has: page.locator('.badge', { hasText: 'canary' }) });
      expect(await marked.count()).toBe(1);
      expect(pageErrors).toEqual([]);
    } finally {
      await control(sandbox.url, `/accounts/${DIRECT.account_id}`, { method: 'PATCH', body: { webhook_canary: 'option' } });
      await receiver.close();
    }
  });
});
