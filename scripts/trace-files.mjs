#!/usr/bin/env node
/**
 * The files a request runs through, traced at run time (not read from the imports): V8's precise
 * coverage counts each function's calls; the counters are reset after a warm-up, one request (or
 * one hand action and the webhook it sends) runs, and every file of the build with a function
 * called meanwhile is listed under its `src/` name. The ticker is off, so the clock's periodic
 * work (renewals, expiries) does not run into the window.
 *
 *   npm run build && node scripts/trace-files.mjs create   # POST /v4/transactions
 *   npm run build && node scripts/trace-files.mjs settle   # Settle by hand until the webhook arrives
 */
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = pathToFileURL(`${root}dist/`).href;
const which = process.argv[2] ?? 'create';
if (which !== 'create' && which !== 'settle') {
  console.error('usage: node scripts/trace-files.mjs create|settle');
  process.exit(2);
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const { startServer } = await import(`${dist}server.js`);
const { DEMO_ACCOUNTS } = await import(`${dist}core/credentials/demo-credentials.js`);
const account = DEMO_ACCOUNTS[0];

let arrived = () => {};
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.end('ok');
    arrived();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', () => resolve(undefined)));
const notificationUrl = `http://127.0.0.1:${receiver.address().port}/webhooks`;
const server = await startServer({ port: 0, ticker: false, notificationUrl, logFormat: 'json', quiet: true });

const headers = {
  authorization: `Bearer ${account.api_key}`,
  'x-merchant-account-id': account.account_id,
  'content-type': 'application/json',
};
let order = 0;
async function create(key) {
  order += 1;
  const res = await fetch(`${server.url}/v4/transactions`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': key },
    body: JSON.stringify({
      amount: 1050,
      currency: 'USD',
      external_identifier: `trace-${order}`,
      payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
      browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'trace', user_device: 'desktop' },
    }),
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return (await res.json()).id;
}
async function settle(id) {
  const delivered = new Promise((resolve) => (arrived = resolve));
  const res = await fetch(`${server.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`settle answered ${res.status}`);
  await res.arrayBuffer();
  await delivered;
}

// Warm-up: every lazy part has run once before the counters are reset.
for (let i = 0; i < 3; i++) await settle(await create(`warm-${i}`));
const next = which === 'settle' ? await create('traced-create') : undefined;
await session.post('Profiler.takePreciseCoverage'); // resets the counters

if (which === 'create') await create('traced');
else await settle(next);

const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
await server.stop();
receiver.close();

const files = result
  .filter((script) => script.url.startsWith(dist) && script.functions.some((f) => f.ranges.some((r) => r.count > 0)))
  .map((script) => `src/${relative(fileURLToPath(dist), fileURLToPath(script.url)).replace(/\.js$/, '.ts')}`)
  .sort();
console.log(`# ${which === 'create' ? 'POST /v4/transactions' : 'Settle by hand, until the webhook arrives'}: ${files.length} files`);
for (const f of files) console.log(f);
