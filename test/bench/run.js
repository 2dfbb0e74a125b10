// `npm run bench`: prints figures, asserts nothing. Each server runs in its own process;
// ratios compare the sandbox with a bare Hono endpoint measured in the same run.
//  1. POST /v4/transactions (unique Idempotency-Key each), GET by id, GET list vs bare Hono.
//  2. A deep page of GET /v4/transactions at 1,000 and at 100,000 rows.
//  3. Settle 500 transactions: deliveries per second to a local receiver, settle-to-receipt p50/p99.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const KEY = 'sk_test_demo_direct_5b2f6e0c9d4a4f1e8c3b7a9d2e6f1c04';
const HEADERS = { authorization: `Bearer ${KEY}`, 'x-merchant-account-id': 'acc_demo_direct', 'content-type': 'application/json' };
const PAYMENT = JSON.stringify({
  amount: 1050,
  currency: 'USD',
  description: 'bench',
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
  browser_info: { user_agent: 'bench' },
});

function startProcess(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL('./server.js', import.meta.url).pathname, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (d) => {
      const m = /READY (\d+)/.exec(d.toString());
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}`, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) });
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

function load(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

const rps = (r) => r.requests.average;
const p99 = (r) => r.latency.p99;
const fmt = (n, d = 0) => n.toFixed(d).padStart(9);
const rows = [];
function row(name, r, base) {
  const bad = r.non2xx + r.errors;
  rows.push(`${name.padEnd(38)}${fmt(rps(r))} req/s ${fmt(p99(r), 1)} ms p99${base ? `   ${fmt((100 * rps(r)) / rps(base), 0)}% of bare` : ''}${bad ? `  (${bad} non-2xx/errors!)` : ''}`);
}

async function main() {
  console.log(`payment-sandbox benchmark: ${DURATION}s per run, ${CONNECTIONS} connections, node ${process.version}\n`);
  const bare = await startProcess(['bare']);
  const bareGet = await load({ url: `${bare.url}/bare` });
  const barePost = await load({ url: `${bare.url}/bare`, method: 'POST', headers: { 'content-type': 'application/json' }, body: PAYMENT });
  await bare.stop();
  row('bare Hono GET', bareGet);
  row('bare Hono POST (JSON echo)', barePost);

  const sb = await startProcess(['sandbox']);
  const created = await load({
    url: `${sb.url}/v4/transactions`,
    method: 'POST',
    headers: HEADERS,
    body: PAYMENT,
    setupClient: (client) => client.on('response', () => client.setHeaders({ ...HEADERS, 'idempotency-key': randomUUID() })),
    requests: [{ method: 'POST', path: '/v4/transactions', setupRequest: (req) => ({ ...req, headers: { ...HEADERS, 'idempotency-key': randomUUID() } }) }],
  });
  row('POST /v4/transactions (unique keys)', created, barePost);
  const one = await (await fetch(`${sb.url}/v4/transactions?limit=1`, { headers: HEADERS })).json();
  const id = one.items[0].id;
  row('GET /v4/transactions/{id}', await load({ url: `${sb.url}/v4/transactions/${id}`, headers: HEADERS }), bareGet);
  row('GET /v4/transactions (limit 20)', await load({ url: `${sb.url}/v4/transactions`, headers: HEADERS }), bareGet);
  await sb.stop();

  // Deep pages: the same cursor depth (the 10th page from the end) at two table sizes.
  for (const size of [1_000, 100_000]) {
    const s = await startProcess(['sandbox', String(size)]);
    let cursor = null;
    const first = await (await fetch(`${s.url}/v4/transactions?limit=100`, { headers: HEADERS })).json();
    cursor = first.next_cursor;
    // Jump near the end: walk with limit 100 to the last tenth of the table.
    const stepsToEnd = Math.floor((size * 0.9) / 100);
    for (let i = 1; i < stepsToEnd && cursor; i++) {
      const p = await (await fetch(`${s.url}/v4/transactions?limit=100&cursor=${cursor}`, { headers: HEADERS })).json();
      cursor = p.next_cursor;
    }
    row(`GET deep page at ${size.toLocaleString('en')} rows`, await load({ url: `${s.url}/v4/transactions?limit=20&cursor=${cursor}`, headers: HEADERS }), bareGet);
    await s.stop();
  }

  // Webhook throughput: settle 500 transactions, receiver acknowledges each.
  const received = new Map();
  const receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.set(JSON.parse(raw).ll_transaction_id, performance.now());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"code":"200","message":"SUCCESS"}');
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;
  const w = await startProcess(['sandbox']);
  const ids = [];
  for (let i = 0; i < 500; i++) {
    const res = await fetch(`${w.url}/v4/transactions`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ ...JSON.parse(PAYMENT), notification_url: hookUrl }) });
    ids.push((await res.json()).id);
  }
  const settledAt = new Map();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async (_, k) => {
      for (let i = k; i < ids.length; i += 10) {
        settledAt.set(ids[i], performance.now());
        await fetch(`${w.url}/_sandbox/transactions/${ids[i]}/settle`, { method: 'POST' });
      }
    }),
  );
  while (received.size < ids.length && performance.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 10));
  const elapsed = (performance.now() - t0) / 1000;
  const lat = ids.filter((i) => received.has(i)).map((i) => received.get(i) - settledAt.get(i)).sort((a, b) => a - b);
  const pct = (q) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))];
  rows.push(`${'webhooks: 500 settles delivered'.padEnd(38)}${fmt(received.size / elapsed)} dlv/s   settle->receipt p50 ${pct(0.5).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms (${received.size}/500)`);
  await w.stop();
  receiver.close();

  console.log(rows.join('\n'));
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
