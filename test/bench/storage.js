// `node test/bench/run.js storage` (named only; a few minutes): the SQLite share of a keyed
// create, in one process, at a grown table. Each build (this one, and each checkout of
// BENCH_COMPARE_ROOT) makes BENCH_STORAGE_ROWS (default 50,000) keyed creates of card 4111 first,
// each under a random UUID Idempotency-Key as a merchant would send (and as the `peers` load
// does); then BENCH_STORAGE_ROUNDS (default 5) rounds of BENCH_STORAGE_CREATES (default 2,000)
// creates each, the builds alternated (every other round in reverse order). Per build, the
// median over rounds of:
//   cpu     the process's CPU time (user + system) per create, through `app.request` (no socket)
//   sql     the wall time spent inside better-sqlite3's statements per create (BEGIN and COMMIT
//           included), and each statement's share; the least of the rounds beside it (the
//           machine's other load only ever adds to it)
//   io      what SQLite read from and wrote to the temporary database's file per create:
//           read and write calls, and their bytes (/proc/self/io: nothing else in the process
//           does I/O while the creates run). A page that left the page cache is read back;
//           dirty pages are written out when a quarter of the cache is dirty. Unlike the times,
//           these counts do not move with the machine's load.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BODY, HEADERS } from './create-request.js';

const ROWS = Number(process.env.BENCH_STORAGE_ROWS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS ?? 5);
const PER = Number(process.env.BENCH_STORAGE_CREATES ?? 2_000);

/** The process's I/O counters (Linux); zeros elsewhere. */
function io() {
  try {
    return Object.fromEntries(
      readFileSync('/proc/self/io', 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const [k, v] = line.split(': ');
          return [k, Number(v)];
        }),
    );
  } catch {
    return { syscr: 0, syscw: 0, rchar: 0, wchar: 0 };
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Times every statement of one better-sqlite3 module while `timing.into` is set. */
function timeStatements(root, timing, patched) {
  const Database = createRequire(join(root, 'package.json'))('better-sqlite3');
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  if (patched.has(proto)) return;
  patched.add(proto);
  for (const method of ['run', 'get', 'all']) {
    const original = proto[method];
    proto[method] = function (...args) {
      const into = timing.into;
      if (into === null) return original.apply(this, args);
      const start = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const name = this.source.replace(/\s+/g, ' ').split(' ').slice(0, 3).join(' ');
        into.set(name, (into.get(name) ?? 0n) + process.hrtime.bigint() - start);
      }
    };
  }
}

async function creates(app, n) {
  for (let i = 0; i < n; i++) {
    const res = await app.request('/v4/transactions', {
      method: 'POST',
      headers: { ...HEADERS, 'idempotency-key': randomUUID() },
      body: BODY,
    });
    if (res.status !== 201) throw new Error(`storage: a create answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
}

export async function storage({ root, compareRoots, figure }) {
  const timing = { into: null };
  const patched = new Set();
  const builds = [{ name: 'this build', root }, ...compareRoots.map((r) => ({ name: `build of ${r}`, root: r }))];
  for (const build of builds) {
    timeStatements(build.root, timing, patched);
    const { createApp } = await import(join(build.root, 'dist/app.js'));
    build.app = createApp({ port: 0, ticker: false }).app;
    await creates(build.app, ROWS);
    Object.assign(build, { cpu: [], sql: [], statements: new Map(), io: [] });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      timing.into = new Map();
      const io0 = io();
      const cpu0 = process.cpuUsage();
      await creates(build.app, PER);
      const cpu = process.cpuUsage(cpu0);
      const io1 = io();
      const spent = timing.into;
      timing.into = null;
      build.cpu.push((cpu.user + cpu.system) / PER);
      let total = 0n;
      for (const [name, ns] of spent) {
        total += ns;
        if (!build.statements.has(name)) build.statements.set(name, []);
        build.statements.get(name).push(Number(ns) / 1000 / PER);
      }
      build.sql.push(Number(total) / 1000 / PER);
      build.io.push(['syscr', 'syscw', 'rchar', 'wchar'].map((k) => (io1[k] - io0[k]) / PER));
    }
  }
  const [first] = builds;
  for (const build of builds) {
    const [reads, writes, readBytes, writtenBytes] = [0, 1, 2, 3].map((i) => median(build.io.map((x) => x[i])));
    const ratio =
      build === first
        ? ''
        : ` (${(median(build.cpu) / median(first.cpu)).toFixed(2)}x / ${(median(build.sql) / median(first.sql)).toFixed(2)}x this build's)`;
    figure(
      'storage',
      `${build.name} at ${ROWS.toLocaleString('en')} rows: CPU / in SQLite per create${ratio}`,
      `${median(build.cpu).toFixed(0)} us / ${median(build.sql).toFixed(1)} us (least ${Math.min(...build.sql).toFixed(1)})`,
      '-',
      null,
    );
    figure(
      'storage',
      `${build.name}: temporary file reads / writes per create`,
      `${reads.toFixed(2)} (${(readBytes / 1024).toFixed(1)} KiB) / ${writes.toFixed(2)} (${(writtenBytes / 1024).toFixed(1)} KiB)`,
      '-',
      null,
    );
    console.log(`    ${[...build.statements].map(([name, us]) => `${name} ${median(us).toFixed(1)}`).join(' | ')} (us)`);
  }
}
