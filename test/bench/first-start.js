// `node test/bench/run.js first-start` (named only; it takes minutes): how long a merchant
// waits the first time, measured the way they run it.
//   clone     `git clone` of the checkout (its committed HEAD) into a scratch folder, a real
//             `npm ci` there (not timed), then `npx payment-sandbox` to the first healthy
//             answer: the first run (npm's exec installs the project into its npx cache and
//             runs `prepare` again, which finds dist/ current) and the runs after it
//   merchant  `npm pack` of that clone, `npm i -D ./payment-sandbox-<v>.tgz` into an empty
//             project, then `npx payment-sandbox` there to the first healthy answer
// Every start gets a free port (`--port`) and is stopped (its process group) after answering.
// BENCH_FIRST_START_RUNS sets the number of starts of each (default 3).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_FIRST_START_RUNS ?? 3);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sh(cmd, args, cwd) {
  const t = performance.now();
  const res = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    timeout: 900_000,
  });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} in ${cwd} exited ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return { out: res.stdout, seconds: (performance.now() - t) / 1000 };
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** `npx payment-sandbox --port <free>` in `cwd`: ms to the first 200 of /_sandbox/health. */
async function npxToHealthy(cwd) {
  const port = await freePort();
  const t = performance.now();
  // Its own process group: npx does not forward signals, so the group is stopped as a whole.
  const child = spawn('npx', ['payment-sandbox', '--port', String(port), '--quiet'], {
    cwd,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/_sandbox/health`);
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`npx payment-sandbox exited ${child.exitCode}:\n${stderr}`);
      if (performance.now() - t > 120_000) throw new Error(`npx payment-sandbox did not answer in 120 s:\n${stderr}`);
      await sleep(5);
    }
    return performance.now() - t;
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // gone already
    }
    await Promise.race([exited, sleep(10_000)]);
  }
}

/** Runs the part; `figure(part, name, value, target, met)` prints one line of the report. */
export async function firstStart({ root, figure }) {
  const work = mkdtempSync(join(tmpdir(), 'payment-sandbox-first-start-'));
  try {
    const clone = join(work, 'clone');
    sh('git', ['clone', '--quiet', root, clone], work);
    const ci = sh('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], clone);
    figure('first-start', 'npm ci in a fresh clone (builds dist/ once; not a target)', `${ci.seconds.toFixed(0)} s`, '-', null);
    const fromClone = [];
    for (let i = 0; i < RUNS; i++) fromClone.push(await npxToHealthy(clone));
    const [first, ...later] = fromClone;
    figure('first-start', 'clone: first npx payment-sandbox to healthy', `${(first / 1000).toFixed(2)} s`, '< 1 s', first < 1000);
    if (later.length)
      figure(
        'first-start',
        'clone: later npx payment-sandbox to healthy',
        later.map((t) => `${(t / 1000).toFixed(2)}`).join(', ') + ' s',
        '-',
        null,
      );

    const tarball = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', work], clone).out.replace(/^[^[]*/, ''))[0].filename;
    const merchant = join(work, 'merchant');
    mkdirSync(merchant);
    writeFileSync(join(merchant, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }));
    const install = sh('npm', ['i', '-D', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], merchant);
    figure('first-start', `merchant: npm i -D ${tarball} (not a target)`, `${install.seconds.toFixed(0)} s`, '-', null);
    const fromMerchant = [];
    for (let i = 0; i < RUNS; i++) fromMerchant.push(await npxToHealthy(merchant));
    figure(
      'first-start',
      'merchant: first npx payment-sandbox to healthy',
      `${(fromMerchant[0] / 1000).toFixed(2)} s`,
      '< 1 s',
      fromMerchant[0] < 1000,
    );
    if (fromMerchant.length > 1)
      figure(
        'first-start',
        'merchant: later npx payment-sandbox to healthy',
        fromMerchant
          .slice(1)
          .map((t) => `${(t / 1000).toFixed(2)}`)
          .join(', ') + ' s',
        '-',
        null,
      );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
