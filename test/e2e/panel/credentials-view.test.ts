/**
 * Restricted keys in the control panel, in headless Chromium against a real sandbox: on the
 * Credentials view a developer mints a key with chosen scopes (its secret shown once), uses
 * it from their own code (403 outside its scopes), sees it listed redacted, and revokes it
 * (401). A screenshot goes to test-artifacts/panel-api-keys-1280.png.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT, launchBrowser, screenshot } from '../../support/browser.js';

let sandbox: RunningServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  [sandbox, browser] = await Promise.all([startServer({ port: 0 }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

async function openCredentials(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${sandbox.url}/#credentials`);
  await page.locator('#live[data-state="live"]').waitFor();
  return page;
}

const asMerchant = (secret: string, init: RequestInit = {}) =>
  fetch(`${sandbox.url}/v4/transactions`, {
    ...init,
    headers: { authorization: `Bearer ${secret}`, 'x-merchant-account-id': DIRECT.account_id, 'content-type': 'application/json' },
  });

describe('panel: restricted API keys on the Credentials view', () => {
  it('mints a key with the chosen scopes (secret shown once), lists it redacted, revokes it', async () => {
    const page = await openCredentials();
    const section = page.getByRole('region', { name: 'Restricted API keys' });
    await expect.poll(() => section.locator('h2').textContent()).toBe('Restricted API keys · direct');
    await section.getByText('No restricted keys yet').waitFor();

    // Nothing chosen: the form says so and mints nothing.
    await section.getByRole('button', { name: 'Mint key' }).click();
    await section.getByText('Choose at least one scope.').waitFor();

    await section.getByLabel('transactions.read').check();
    await section.getByLabel('refunds.write').check();
    await section.getByLabel('Name').fill('reporting job');
    await section.getByRole('button', { name: 'Mint key' }).click();
    const secretEl = section.locator('[data-secret]');
    await secretEl.waitFor();
    const secret = (await secretEl.textContent())!;
    expect(secret).toMatch(/^sk_test_rk_[0-9a-f]{40}$/);
    const item = section.getByRole('listitem', { name: 'API key reporting job' });
    await item.waitFor();
    expect(await item.textContent()).toContain(`sk_test_rk_…${secret.slice(-4)}`);
    expect(await item.textContent()).not.toContain(secret);
    expect(await item.textContent()).toContain('refunds.write');
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'panel-api-keys-1280');

    // The merchant's code with the new key: reads work, a create is 403 naming the scope.
    expect((await asMerchant(secret)).status).toBe(200);
    const refused = await asMerchant(secret, { method: 'POST', body: JSON.stringify({ amount: 100, currency: 'USD' }) });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain('transactions.write');

    // The secret is shown once: after "I have copied it" it is gone for good.
    await section.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => secretEl.count()).toBe(0);

    await item.getByRole('button', { name: 'Revoke' }).click();
    await item.getByRole('button', { name: 'Revoke now' }).click();
    await section.getByText('No restricted keys yet').waitFor();
    expect((await asMerchant(secret)).status).toBe(401);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  }, 120_000);
});
