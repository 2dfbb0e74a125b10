// `node test/bench/run.js create-cpu` (named only; about a minute): the CPU a keyed create and a
// get by id cost in one process, without a socket (the work, not HTTP). This checkout's build
// and each of BENCH_COMPARE_ROOT's (several joined by commas) run in this one process, their
// rounds alternated, so the machine's load falls on all of them alike. Each figure is the
// median CPU time (user + system) per request over BENCH_CPU_ROUNDS (default 7) rounds of
// BENCH_CPU_REQUESTS (default 2,000) requests through `app.request`, after one unmeasured
// round; the spread (lowest to highest round) is printed beside it. A create is the direct
// card 4111 with a unique Idempotency-Key (it stays PENDING); a get by id cycles over the
// transactions the creates made, with the account's key, then with a restricted key
// (transactions.read) minted for each build.
import { performance } from 'node:perf_hooks';
import { BODY, HEADERS } from './create-request.js';

const REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 7);

export async function createCpu({ root, compareRoots, figure }) {
  const builds = [];
  for (const [i, dir] of [root, ...compareRoots].entries()) {
    const { createApp } = await import(`${dir.replace(/\/$/, '')}/dist/app.js`);
    const { app } = createApp({ port: 0, ticker: false });
    const minted = await app.request(`/_sandbox/accounts/${HEADERS['x-merchant-account-id']}/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['transactions.read'] }),
    });
    if (minted.status !== 201) throw new Error(`create-cpu: ${dir} answered a restricted key's mint ${minted.status}`);
    const restricted = { ...HEADERS, authorization: `Bearer ${(await minted.json()).secret}` };
    builds.push({ name: i === 0 ? 'this build' : dir, app, ids: [], n: 0, restricted });
  }
  const get = async (b, headers) => {
    const res = await b.app.request(`/v4/transactions/${b.ids[b.n++ % b.ids.length]}`, { headers });
    if (res.status !== 200) throw new Error(`create-cpu: ${b.name} answered a get ${res.status}`);
    await res.text();
  };
  const kinds = {
    create: async (b) => {
      const res = await b.app.request('/v4/transactions', {
        method: 'POST',
        headers: { ...HEADERS, 'idempotency-key': `cpu-${b.n++}` },
        body: BODY,
      });
      if (res.status !== 201) throw new Error(`create-cpu: ${b.name} answered a create ${res.status}: ${await res.text()}`);
      const text = await res.text();
      if (b.ids.length < 500) b.ids.push(JSON.parse(text).id);
    },
    'get by id': (b) => get(b, HEADERS),
    'get by id, restricted key': (b) => get(b, b.restricted),
  };
  const cpu = {};
  const started = performance.now();
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [kind, one] of Object.entries(kinds)) {
      // Each round starts one build further on, so no build always runs first.
      for (let k = 0; k < builds.length; k++) {
        const b = builds[(k + round) % builds.length];
        const start = process.cpuUsage();
        for (let i = 0; i < REQUESTS; i++) await one(b);
        const used = process.cpuUsage(start);
        if (round > 0) ((cpu[kind] ??= {})[b.name] ??= []).push((used.user + used.system) / REQUESTS);
      }
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  for (const [kind, byBuild] of Object.entries(cpu)) {
    const base = median(byBuild['this build']);
    for (const [name, xs] of Object.entries(byBuild)) {
      const us = median(xs);
      const spread = `${Math.min(...xs).toFixed(0)} to ${Math.max(...xs).toFixed(0)}`;
      const ratio = name === 'this build' ? '' : `; CPU of this build / its ${(base / us).toFixed(2)}x`;
      figure('create-cpu', `${kind}, CPU per request: ${name}`, `${us.toFixed(1)} us (rounds ${spread})${ratio}`, '-', null);
    }
  }
  console.log(`  ${ROUNDS} rounds of ${REQUESTS} requests per build and kind in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
