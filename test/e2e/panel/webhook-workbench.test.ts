/**
 * The webhook workbench in the panel, in a real browser: a past delivery's body edited and
 * sent signed to a verifying receiver, and the "why did my check fail" form naming the cause
 * of a re-serialized body.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server.js';
import { DIRECT, control, launchBrowser, merchantApi } from '../../support/browser.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';
import { goodHandler } from '../../support/webhook-handlers.js';

/** Where the screenshots of the forms go, when asked (`WORKBENCH_SHOTS=dir`). */
const SHOTS = process.env.WORKBENCH_SHOTS;

let sandbox: RunningServer;
let browser: Browser;
let receiver: Receiver;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  [sandbox, browser] = await Promise.all([startServer({ port: 0, notificationUrl: receiver.url }), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await receiver?.close();
});

describe('panel: the webhook workbench', () => {
  it('edits a past delivery body and sends it signed; the receiver verifies the edited bytes', async () => {
    const tx = await merchantApi(sandbox.url, DIRECT).createTransaction({
      amount: 1500,
      currency: 'USD',
      external_identifier: 'edit-me-1',
    });
    await control(sandbox.url, `/transactions/${tx.id}/settle`, { method: 'POST' });
    await receiver.waitFor(1);

    await page.goto(`${sandbox.url}/#webhooks`);
    await page.locator('#live[data-state="live"]').waitFor();
    const delivery = page.locator('#view-webhooks tbody.item').filter({ hasText: 'edit-me-1' });
    await delivery.getByRole('button', { name: 'Details', exact: true }).click();
    const form = delivery.getByRole('form', { name: 'Edit and send this webhook' });
    const body = form.locator('textarea');
    const edited = ((await body.inputValue()) as string).replace('"SUCCEEDED"', '"FAILED"').replace('edit-me-1', 'edit-me-1-replayed');
    await body.fill(edited);
    if (SHOTS) await form.screenshot({ path: `${SHOTS}/panel-edit-and-send.png` });
    await form.getByRole('button', { name: 'Send signed' }).click();
    await expect.poll(() => form.textContent(), { timeout: 5000 }).toContain('Queued as delivery');
    const hook = await receiver.waitForMatch((h) => h.raw === edited);
    expect(hook.verified).toBe(true);
    if (SHOTS) await form.screenshot({ path: `${SHOTS}/panel-edit-and-send-sent.png` });
    expect(pageErrors).toEqual([]);
  });

  it('explains a failed check: a re-serialized body is named, with the first differing byte and the fix', async () => {
    const hook = receiver.received[0]!;
    const reserialized = JSON.stringify(JSON.parse(hook.raw), null, 2);
    await page.goto(`${sandbox.url}/#webhooks`);
    const form = page.getByRole('form', { name: 'Why did my signature check fail?' });
    await form.getByLabel('Body your handler verified').fill(reserialized);
    await form.getByLabel('Signature header it verified').fill(hook.headers.signature as string);
    await form.getByRole('button', { name: 'Explain' }).click();
    await expect.poll(() => form.locator('.explain-result').textContent(), { timeout: 5000 }).toContain('body_reserialized');
    const text = (await form.locator('.explain-result').textContent()) ?? '';
    expect(text).toContain('sent from byte 1');
    expect(text).toContain('Fix:');
    if (SHOTS) await form.screenshot({ path: `${SHOTS}/panel-explain.png` });
    expect(pageErrors).toEqual([]);
  });

  it('the check form with a state URL names what a handler that applies forged deliveries showed', async () => {
    const flawed = await goodHandler({ flaw: 'applies_forged' });
    try {
      await page.goto(`${sandbox.url}/#webhooks`);
      const form = page.getByRole('form', { name: 'Check a webhook handler' });
      await form.getByLabel('Check your webhook handler').fill(flawed.url);
      await form.getByLabel('State URL of your test build (optional)').fill(flawed.url.replace(/\/webhooks$/, '/orders'));
      await form.getByRole('button', { name: 'Check handler' }).click();
      await expect.poll(() => form.locator('.check-report .error-text').textContent(), { timeout: 20_000 }).toMatch(/checks failed/);
      const tampered = form.locator('.check-list li[data-check="tampered_body"]');
      expect(await tampered.textContent()).toMatch(/state: GET .*showed \{"payment_status":"SUCCEEDED"/);
      if (SHOTS) await form.screenshot({ path: `${SHOTS}/panel-check-state.png` });
      expect(pageErrors).toEqual([]);
    } finally {
      await flawed.close();
    }
  });
});
