// `node test/bench/run.js caches` (named only; about a minute on a quiet machine): what each
// read-side cache pays on its own. The build's dist/ is copied once per variant, with one
// mechanism taken out of the copy, and every variant's app runs in this one process, rounds
// interleaved, so the machine's load falls on all of them alike:
//   all        the build as it is
//   no-read    the store's read cache (core/db/read-cache.ts) never hits: every GET and page
//              reads its rows (and the JSON text cache then misses too: it keys on the cached entity)
//   no-json    the per-entity JSON text cache (transaction-format.ts) keeps nothing
// Each figure is the median CPU time (user + system) per request of BENCH_CACHE_REQUESTS
// (default 2,000) requests through `app.request` (no socket: the cost of the work, not of
// HTTP), over BENCH_CACHE_ROUNDS (default 5) rounds after one unmeasured round, and its ratio
// to `all`. A GET by id cycles over 200 created transactions; a list is a page of 20.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BODY, HEADERS } from './create-request.js';

const REQUESTS = Number(process.env.BENCH_CACHE_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_CACHE_ROUNDS ?? 5);

/** Each variant: the file in dist/ to change, and the exact text replaced (the run fails if it is gone). */
const VARIANTS = {
  all: [],
  'no-read': [['core/db/read-cache.js', 'return this.byId.get(id);', 'return undefined;']],
  'no-json': [['features/transactions/transaction-format.js', 'serialized.set(tx, { baseUrl, mode, json });', 'void 0;']],
};

function variantRoot(root, scratch, name, edits) {
  const dir = join(scratch, name);
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  for (const file of ['package.json', 'public', 'docs', 'examples', 'scenarios']) {
    try {
      cpSync(join(root, file), join(dir, file), { recursive: true });
    } catch {
      // not every checkout has each
    }
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  for (const [file, from, to] of edits) {
    const path = join(dir, 'dist', file);
    const text = readFileSync(path, 'utf8');
    if (!text.includes(from)) throw new Error(`caches: ${file} no longer holds ${JSON.stringify(from)}; update test/bench/caches.js`);
    writeFileSync(path, text.replace(from, to));
  }
  return dir;
}

export async function caches({ root, figure }) {
  const scratch = mkdtempSync(join(tmpdir(), 'payment-sandbox-caches-'));
  try {
    const apps = [];
    for (const [name, edits] of Object.entries(VARIANTS)) {
      const dir = variantRoot(root, scratch, name, edits);
      const { createApp } = await import(`${dir}/dist/app.js`);
      const { app } = createApp({ port: 0, ticker: false });
      const ids = [];
      for (let i = 0; i < 200; i++) {
        const res = await app.request('/v4/transactions', {
          method: 'POST',
          headers: { ...HEADERS, 'idempotency-key': `k${i}` },
          body: BODY,
        });
        ids.push((await res.json()).id);
      }
      apps.push({ name, app, ids });
    }
    const kinds = { 'get by id': (a, i) => `/v4/transactions/${a.ids[i % a.ids.length]}`, 'list of 20': () => '/v4/transactions?limit=20' };
    const cpu = {};
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [kind, url] of Object.entries(kinds)) {
        for (const a of apps) {
          const start = process.cpuUsage();
          for (let i = 0; i < REQUESTS; i++) {
            const res = await a.app.request(url(a, i), { headers: HEADERS });
            if (res.status !== 200) throw new Error(`caches: ${a.name} ${url(a, i)} answered ${res.status}`);
            await res.text();
          }
          const used = process.cpuUsage(start);
          if (round > 0) ((cpu[kind] ??= {})[a.name] ??= []).push((used.user + used.system) / REQUESTS);
        }
      }
    }
    const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    for (const [kind, byVariant] of Object.entries(cpu)) {
      const base = median(byVariant.all);
      for (const [name, xs] of Object.entries(byVariant)) {
        const us = median(xs);
        figure('caches', `${kind}: ${name}`, `${us.toFixed(1)} us, ${(us / base).toFixed(2)}x`, '-', null);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
