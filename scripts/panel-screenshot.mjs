#!/usr/bin/env node
// Takes docs/images/panel.png, the README's picture of the panel: a sandbox with a few
// payments (settled, failed, pending) and their webhooks, in headless Chromium.
//   npm run build && node scripts/panel-screenshot.mjs    (CHROMIUM_PATH, default /usr/bin/chromium)
import { chromium } from 'playwright-core';
import { startSandbox } from '../dist/index.js';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
const recv = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"200","message":"SUCCESS"}');
  });
});
await new Promise((r) => recv.listen(0, '127.0.0.1', r));
const hook = `http://127.0.0.1:${recv.address().port}/webhooks`;
const sandbox = await startSandbox({ notificationUrl: hook, quiet: true });
const h = { ...sandbox.credentials.direct.headers, 'content-type': 'application/json' };
const ids = [];
for (const [i, amount] of [
  [1001, 1050],
  [1002, 2500],
  [1003, 990],
  [1004, 12000],
]) {
  const r = await fetch(`${sandbox.apiUrl}/transactions`, {
    method: 'POST',
    headers: { ...h, 'idempotency-key': `k-${i}` },
    body: JSON.stringify({
      amount,
      currency: 'USD',
      description: `Order ${i}`,
      external_identifier: `order-${i}`,
      customer: { email: 'jane@example.com', name: 'Jane Doe' },
      payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
      browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'docs' },
    }),
  });
  ids.push((await r.json()).id);
}
await sandbox.settle(ids[0]);
await sandbox.settle(ids[1]);
await sandbox.fail(ids[2]);
await new Promise((r) => setTimeout(r, 1000));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
await page.goto(sandbox.url + '/');
await page.waitForTimeout(1500);
await page.screenshot({ path: fileURLToPath(new URL('../docs/images/panel.png', import.meta.url)) });
await browser.close();
await sandbox.stop();
recv.close();
