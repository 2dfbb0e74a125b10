// `npm run soak [-- --seconds 60 --kill-after 8 --idle-seconds 15]`: not part of npm test;
// prints figures and exits 1 when a soak rule breaks. Loopback only, every loop bounded.
//  Round 1: the sandbox (the real bin, its own process, a --db file) under mixed traffic at
//    64 connections for --seconds: creates with Idempotency-Key, reads, pages, settles,
//    fails, refunds, buyers, the delivery log. Its webhooks go to a receiver here that
//    answers 500 to 20% of requests. Counts requests, 5xx, transport errors; RSS of the
//    sandbox at start, at the end of the load and after --idle-seconds idle; then drains
//    webhooks with clock advances and counts lost events (an outcome whose webhook was never
//    acknowledged) and duplicates (an event acknowledged more than once).
//  Round 2: restarted on the same --db with --latency 150 (so creates are in flight), load
//    for --kill-after seconds, SIGKILL, then: idempotency keys left `processing` in the file,
//    restart, every acknowledged (2xx) create still there, the in-flight keys retried (a 409
//    concurrent_request means the crash left the key held: not released at start-up), and
//    every outcome's webhook delivered after the restart.
//  Round 3: event streams whose clients never read: 30 paused sockets on /_sandbox/events,
//    then 3,000 requests to warm up and 20,000 more (401s with 15 KB paths, and creates) at 8
//    connections; the sandbox's RSS grows by less than 80 MB and stays under 400 MB (streams
//    that queued every event grew it by gigabytes until the heap ran out).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 60);
const KILL_AFTER = arg('kill-after', 8);
const IDLE_SECONDS = arg('idle-seconds', 15);
const CONNECTIONS = arg('connections', 64);
const FAIL_RATE = 0.2;
const BIN = new URL('../../bin/payment-sandbox.js', import.meta.url).pathname;
const ACCOUNT = 'acc_demo_direct';
const HEADERS = {
  authorization: 'Bearer sk_test_demo_direct_5b2f6e0c9d4a4f1e8c3b7a9d2e6f1c04',
  'x-merchant-account-id': ACCOUNT,
  'content-type': 'application/json',
};
const ACK = JSON.stringify({ code: '200', message: 'SUCCESS' });

const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-soak-'));
const db = join(dir, 'soak.db');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;

// ---- the merchant's receiver: 20% of requests answered 500 ----
const acked = new Map(); // event -> acknowledged deliveries
let received = 0;
let refused = 0;
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received += 1;
    let event = 'unparsable';
    try {
      const b = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      event = b.refund_data ? `refund:${b.ll_transaction_id}` : `payment:${b.ll_transaction_id}:${b.payment_data?.payment_status}`;
    } catch {}
    if (Math.random() < FAIL_RATE) {
      refused += 1;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"500","message":"try again"}');
      return;
    }
    acked.set(event, (acked.get(event) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/json' }).end(ACK);
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const HOOK = `http://127.0.0.1:${receiver.address().port}/hook`;

// ---- the sandbox in its own process ----
function startSandbox(extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--db', db, '--notification-url', HOOK, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no banner in 20 s: ${out} ${err}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /API\s+(http:\/\/\S+)\/v4/.exec(out);
      if (m && !child.url) {
        clearTimeout(timer);
        child.url = m[1];
        resolve(child);
      }
    });
    child.stderr.on('data', (d) => {
      err += d.toString();
      if (err.length > 20_000) err = err.slice(-10_000);
    });
    child.stderrText = () => err;
    child.once('exit', (code, signal) => {
      child.exited = true;
      clearTimeout(timer);
      reject(new Error(`sandbox exited ${code ?? signal}: ${err}`));
    });
  });
}
const rssKb = (child) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
function stopSandbox(child, signal = 'SIGTERM') {
  if (child.exited) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', r);
    child.kill(signal);
  });
}

// ---- mixed traffic ----
function newStats() {
  return { requests: 0, byStatus: {}, fiveXx: 0, errors: 0, errorSamples: new Set(), fiveXxSamples: new Set(), latencies: [] };
}
const created = new Map(); // id -> 'PENDING' | 'SUCCEEDED' | 'FAILED'
const expected = new Set(); // events whose webhook must be acknowledged
let pending = [];
let settled = [];

async function call(base, stats, method, path, body, headers = HEADERS) {
  stats.requests += 1;
  const started = performance.now();
  try {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined && method === 'POST' ? {} : headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    stats.latencies.push(performance.now() - started);
    stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
    if (res.status >= 500) {
      stats.fiveXx += 1;
      if (stats.fiveXxSamples.size < 5)
        stats.fiveXxSamples.add(`${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')} -> ${res.status} ${text.slice(0, 120)}`);
    }
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, json };
  } catch (err) {
    stats.errors += 1;
    if (stats.errorSamples.size < 5)
      stats.errorSamples.add(`${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}: ${err.cause?.code ?? err.name}`);
    return { status: 0, json: null };
  }
}

const paymentBody = (n) => ({
  amount: 1000 + (n % 50_000),
  currency: 'USD',
  description: 'soak',
  external_identifier: `soak-${n}`,
  payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
  browser_info: { user_agent: 'soak' },
});
let counter = 0;
const pick = (list) => list[Math.floor(Math.random() * list.length)];

/** Runs one worker until `deadline` (ms) or `stop.now`; `inflight` tracks unanswered idempotent creates. */
async function worker(base, stats, deadline, stop, inflight) {
  while (Date.now() < deadline && !stop.now) {
    const r = Math.random();
    if (r < 0.35 || pending.length === 0) {
      const n = (counter += 1);
      const key = randomUUID();
      const body = paymentBody(n);
      inflight.set(key, body);
      const a = await call(base, stats, 'POST', '/v4/transactions', body, { ...HEADERS, 'idempotency-key': key });
      if (a.status === 201) {
        created.set(a.json.id, 'PENDING');
        pending.push(a.json.id);
      }
      if (a.status !== 0) inflight.delete(key);
    } else if (r < 0.47) {
      await call(base, stats, 'GET', `/v4/transactions/${pick([...pending, ...settled])}`);
    } else if (r < 0.55) {
      await call(base, stats, 'GET', '/v4/transactions?limit=20');
    } else if (r < 0.7) {
      const id = pending.pop();
      const a = await call(base, stats, 'POST', `/_sandbox/transactions/${id}/settle`);
      if (a.status === 200) {
        created.set(id, 'SUCCEEDED');
        expected.add(`payment:${id}:SUCCEEDED`);
        settled.push(id);
      }
    } else if (r < 0.8) {
      const id = pending.pop();
      const a = await call(base, stats, 'POST', `/_sandbox/transactions/${id}/fail`);
      if (a.status === 200) {
        created.set(id, 'FAILED');
        expected.add(`payment:${id}:FAILED`);
      }
    } else if (r < 0.88 && settled.length > 0) {
      const a = await call(
        base,
        stats,
        'POST',
        `/v4/transactions/${pick(settled)}/refunds`,
        { amount: 100, reason: 'soak' },
        { ...HEADERS, 'idempotency-key': randomUUID() },
      );
      if (a.status === 201) expected.add(`refund:${a.json.id}`);
    } else if (r < 0.94) {
      await call(base, stats, 'GET', '/v4/buyers?limit=10');
    } else {
      await call(base, stats, 'GET', `/_sandbox/deliveries?account_id=${ACCOUNT}&limit=10`);
    }
  }
}

async function load(base, seconds, stop = { now: false }, inflight = new Map()) {
  const stats = newStats();
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, () => worker(base, stats, deadline, stop, inflight)));
  stats.seconds = (performance.now() - started) / 1000;
  return stats;
}

/** Advances the clock until every expected event is acknowledged (at most 40 rounds). */
async function drain(base) {
  const stats = newStats();
  for (let round = 0; round < 40; round += 1) {
    const lost = [...expected].filter((e) => !acked.has(e));
    if (lost.length === 0) return { rounds: round, lost: 0 };
    await call(base, stats, 'POST', '/_sandbox/clock/advance', { seconds: 3600 }, { 'content-type': 'application/json' });
  }
  return { rounds: 40, lost: [...expected].filter((e) => !acked.has(e)).length };
}
const duplicates = () => [...acked.values()].filter((n) => n > 1).length;
const latencyLine = (s) => {
  const l = [...s.latencies].sort((a, b) => a - b);
  const at = (q) => (l.length ? l[Math.min(l.length - 1, Math.floor(q * l.length))] : 0).toFixed(0);
  return `latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms (client timeout 30 s)`;
};
const statusLine = (s) =>
  Object.entries(s.byStatus)
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');

/** Round 3: 30 clients that ask for the event stream and never read it, then load; RSS before and after. */
async function stalledStreams(sandbox) {
  const { hostname, port } = new URL(sandbox.url);
  const stalled = [];
  for (let i = 0; i < 30; i++) {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    await new Promise((r) => socket.once('connect', r));
    socket.write(`GET /_sandbox/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    socket.pause();
    stalled.push(socket);
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const send = (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = request({ agent, host: hostname, port, method, path, headers: body === undefined ? {} : HEADERS }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
  const long = `/v4/transactions/${'x'.repeat(15_000)}`;
  const create = JSON.stringify({
    amount: 1050,
    currency: 'USD',
    payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
    browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'soak', user_device: 'desktop' },
  });
  const statuses = {};
  let sent = 0;
  const load = async (total) => {
    const worker = async () => {
      while (sent < total) {
        const n = sent++;
        const status = n % 10 === 0 ? await send('POST', '/v4/transactions', create) : await send('GET', `${long}${n}`);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  };
  try {
    await load(3_000); // warm-up: the stalled streams fill and are dropped, the heap settles
    const beforeKb = rssKb(sandbox);
    await load(23_000);
    const afterKb = rssKb(sandbox);
    const health = await send('GET', '/_sandbox/health');
    return { total: sent, statuses, beforeKb, afterKb, health };
  } finally {
    agent.destroy();
    for (const s of stalled) s.destroy();
  }
}

const failures = [];
const report = [];
try {
  // ---- round 1 ----
  let sandbox = await startSandbox();
  const rssStart = rssKb(sandbox);
  const r1 = await load(sandbox.url, SECONDS);
  const rssEnd = rssKb(sandbox);
  const d1 = await drain(sandbox.url);
  await sleep(IDLE_SECONDS * 1000);
  const rssIdle = rssKb(sandbox);
  report.push(
    `round 1: ${SECONDS} s at ${CONNECTIONS} connections against --db ${db}`,
    `  requests ${r1.requests} (${(r1.requests / r1.seconds).toFixed(0)}/s)  statuses ${statusLine(r1)}`,
    `  ${latencyLine(r1)}`,
    `  5xx ${r1.fiveXx}  transport errors ${r1.errors}${r1.fiveXxSamples.size ? `  5xx samples: ${[...r1.fiveXxSamples].join(' | ')}` : ''}${r1.errorSamples.size ? `  error samples: ${[...r1.errorSamples].join(' | ')}` : ''}`,
    `  webhooks: ${expected.size} outcome events, receiver got ${received} requests (${refused} answered 500), lost ${d1.lost}, duplicates ${duplicates()} (after ${d1.rounds} clock advances of 1 h)`,
    `  RSS start ${mb(rssStart)}, end of load ${mb(rssEnd)}, after ${IDLE_SECONDS} s idle ${mb(rssIdle)}`,
  );
  if (r1.fiveXx > 0) failures.push(`${r1.fiveXx} 5xx under load`);
  if (r1.errors > 0) failures.push(`${r1.errors} transport errors under load`);
  if (d1.lost > 0) failures.push(`${d1.lost} webhooks lost in round 1`);
  if (duplicates() > 0) failures.push(`${duplicates()} events acknowledged more than once`);
  await stopSandbox(sandbox);

  // ---- round 2: SIGKILL mid-load ----
  const duplicatesBefore = duplicates();
  sandbox = await startSandbox(['--latency', '150']);
  const stop = { now: false };
  const inflight = new Map();
  const createdBefore = created.size;
  const running = load(sandbox.url, KILL_AFTER + 30, stop, inflight);
  await sleep(KILL_AFTER * 1000);
  sandbox.kill('SIGKILL');
  await new Promise((r) => (sandbox.exited ? r() : sandbox.once('exit', r)));
  stop.now = true;
  const r2 = await running;
  const file = new Database(db, { readonly: true });
  const processingAtCrash = file.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE state = 'processing'").get().n;
  file.close();

  sandbox = await startSandbox();
  const file2 = new Database(db, { readonly: true });
  const processingAfterStart = file2.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE state = 'processing'").get().n;
  file2.close();
  const check = newStats();
  let missing = 0;
  let wrongStatus = 0;
  const ids = [...created.entries()];
  for (let i = 0; i < ids.length; i += CONNECTIONS) {
    await Promise.all(
      ids.slice(i, i + CONNECTIONS).map(async ([id, status]) => {
        const a = await call(sandbox.url, check, 'GET', `/v4/transactions/${id}`);
        // A settle or fail whose answer the kill cut may have been applied: only an
        // acknowledged outcome must read back the same.
        if (a.status !== 200) missing += 1;
        else if (status !== 'PENDING' && a.json.status !== status) wrongStatus += 1;
      }),
    );
  }
  const retried = { ok: 0, held: 0, other: 0 };
  for (const [key, body] of inflight) {
    const a = await call(sandbox.url, check, 'POST', '/v4/transactions', body, { ...HEADERS, 'idempotency-key': key });
    if (a.status === 201 || a.status === 200) {
      retried.ok += 1;
      if (a.status === 201) created.set(a.json.id, 'PENDING');
    } else if (a.status === 409 && a.json?.code === 'concurrent_request') retried.held += 1;
    else retried.other += 1;
  }
  const d2 = await drain(sandbox.url);
  report.push(
    `round 2: --latency 150, SIGKILL after ${KILL_AFTER} s of load, restart on the same --db`,
    `  requests before the kill ${r2.requests}  statuses ${statusLine(r2)}  transport errors (the kill) ${r2.errors}`,
    `  acknowledged creates ${created.size - retried.ok} (${created.size - createdBefore - retried.ok} in this round): missing after restart ${missing}, acknowledged outcomes changed ${wrongStatus}`,
    `  idempotency keys 'processing' in the file after the crash ${processingAtCrash}, after the restart ${processingAfterStart}; in-flight keys retried: ${retried.ok} ran, ${retried.held} still held (409 concurrent_request), ${retried.other} other`,
    `  webhooks: ${expected.size} outcome events in all, lost ${d2.lost}, duplicates ${duplicates() - duplicatesBefore} new since the kill (after ${d2.rounds} clock advances; a delivery acknowledged in the instant of the kill may be sent again: at least once)`,
  );
  if (missing > 0 || wrongStatus > 0)
    failures.push(`${missing} acknowledged creates missing and ${wrongStatus} acknowledged outcomes changed after SIGKILL`);
  if (d2.lost > 0) failures.push(`${d2.lost} webhooks lost after the restart`);
  if (processingAfterStart > 0 || retried.held > 0)
    failures.push(
      `BUG: ${processingAfterStart} idempotency keys left 'processing' by the crash were not released at start-up (${retried.held} retries got 409 concurrent_request)`,
    );
  await stopSandbox(sandbox);

  // ---- round 3: stalled event streams under load ----
  sandbox = await startSandbox(['--request-log-limit', '1000']);
  const r3 = await stalledStreams(sandbox);
  report.push(
    `round 3: 30 event streams never read, ${r3.total} requests (401s with 15 KB paths, 1 in 10 a create) at 8 connections`,
    `  statuses ${Object.entries(r3.statuses)
      .map(([k, v]) => `${k}:${v}`)
      .join(' ')}  RSS after warm-up ${mb(r3.beforeKb)}, after the load ${mb(r3.afterKb)}  health ${r3.health}`,
  );
  if ((r3.afterKb - r3.beforeKb) / 1024 >= 80 || r3.afterKb / 1024 >= 400)
    failures.push(`RSS ${mb(r3.beforeKb)} -> ${mb(r3.afterKb)} with stalled event streams (at most +80 MB, under 400 MB)`);
  if (r3.health !== 200 || sandbox.exited) failures.push('the sandbox did not answer after the stalled event streams');
  if (r3.statuses[201] !== r3.total / 10 || r3.statuses[401] !== (r3.total * 9) / 10)
    failures.push(`round 3 answered ${JSON.stringify(r3.statuses)}: expected only 401s and 1 create in 10 (201)`);
  await stopSandbox(sandbox);
} finally {
  receiver.close();
  receiver.closeAllConnections();
  rmSync(dir, { recursive: true, force: true });
}
console.log(report.join('\n'));
console.log(failures.length === 0 ? 'soak: all rules held' : `soak: ${failures.length} rule(s) broken:\n  - ${failures.join('\n  - ')}`);
process.exitCode = failures.length === 0 ? 0 : 1;
