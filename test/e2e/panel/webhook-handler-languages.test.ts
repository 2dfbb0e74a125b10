/**
 * The Credentials view's webhook handler picker in a real browser: for each language the
 * merchant picks, the code shown (and copied) is its file, `examples/webhook-handlers/<LANG>/`,
 * character for character, with its run command; the choice is remembered across reloads.
 * Screenshots: test-artifacts/panel-handlers-<language>-1280.png.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerFiles } from '../../../src/features/webhooks/webhook-handler-files.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { launchBrowser, screenshot } from '../../support/browser.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HANDLERS = handlerFiles((path) => readFileSync(ROOT + path, 'utf8'));

let sandbox: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [sandbox, browser] = await Promise.all([startServer({ port: 0 }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

describe('the panel shows the webhook handler in the language the merchant picks', () => {
  it('each language button shows and copies exactly its handler file, with its run command', { timeout: 60_000 }, async () => {
    expect(HANDLERS).toHaveLength(6);
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(`${sandbox.url}/#credentials`);
      const picker = page.getByRole('region', { name: 'Webhook handler' });
      const code = picker.locator('pre.handler-code');
      // Node.js first, as in the README.
      await expect.poll(() => code.getAttribute('data-language'), { timeout: 10_000 }).toBe('node');
      expect(await picker.getByRole('button', { name: 'Node.js', exact: true }).getAttribute('aria-pressed')).toBe('true');

      for (const handler of HANDLERS) {
        await picker.getByRole('button', { name: handler.name, exact: true }).click();
        await expect.poll(() => code.getAttribute('data-language')).toBe(handler.language);
        expect(await picker.getByRole('button', { name: handler.name, exact: true }).getAttribute('aria-pressed')).toBe('true');
        expect(await code.textContent()).toBe(handler.code);
        expect(await picker.locator('pre.handler-run').textContent()).toBe(handler.run);
        expect(await picker.locator('.handler-body code').first().textContent()).toBe(handler.file);
        await page.evaluate(() => navigator.clipboard.writeText(''));
        await picker.getByRole('button', { name: `Copy ${handler.name} webhook handler` }).click();
        await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(handler.code);
        if (handler.language === 'python' || handler.language === 'java') {
          await picker.scrollIntoViewIfNeeded();
          await screenshot(page, `panel-handlers-${handler.language}-1280`);
        }
      }

      // The last choice (Java) is remembered after a reload.
      await page.reload();
      await expect
        .poll(() => page.getByRole('region', { name: 'Webhook handler' }).locator('pre.handler-code').getAttribute('data-language'), {
          timeout: 10_000,
        })
        .toBe('java');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
