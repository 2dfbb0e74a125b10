/**
 * The container image (`npm run test:image`): builds ./Dockerfile unchanged with `docker`
 * where an engine answers, else `podman` (set up by scripts/container-engine.sh,
 * whose CONTAINER_BUILD_ARGS are passed to podman builds), or takes the image built ahead from
 * it (`PAYMENT_SANDBOX_IMAGE`, test/support/container-image.ts), then runs it as a merchant's CI
 * would: health from the host, HEALTHCHECK with a changed port, a non-root process, payment
 * links on --public-url, SIGTERM exits 0, and --db on the data volume survives a restart.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { directPayment, startReceiver } from '../support/app.js';
import { merchantCheckout } from '../support/checkout.js';
import { prepareImage } from '../support/container-image.js';
import { alive, runningIn } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { until } from '../support/until.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const engine = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0 ? 'docker' : 'podman';
const buildArgs = engine === 'podman' ? (process.env.CONTAINER_BUILD_ARGS ?? '--format docker').split(/\s+/).filter(Boolean) : [];
const tag = 'payment-sandbox:image-test';
const name = `payment-sandbox-image-test-${process.pid}`;
const volume = `payment-sandbox-image-test-${process.pid}`;

function run(args: string[], timeoutMs = 120_000): SpawnSyncReturns<string> {
  return spawnSync(engine, args, { cwd: root, encoding: 'utf8', timeout: timeoutMs });
}

function ok(args: string[], timeoutMs?: number): string {
  const res = run(args, timeoutMs);
  if (res.status !== 0) throw new Error(`${engine} ${args.join(' ')} exited ${res.status}: ${res.stderr || res.stdout}`);
  return res.stdout.trim();
}

async function health(origin: string): Promise<true | undefined> {
  try {
    const res = await fetch(`${origin}/_sandbox/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok ? true : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the image's HEALTHCHECK: by hand with podman (no systemd timer here), docker's own timer otherwise. */
async function healthy(): Promise<true> {
  return until(
    'the HEALTHCHECK to report healthy',
    () => {
      if (engine === 'podman') return run(['healthcheck', 'run', name], 30_000).status === 0 ? true : undefined;
      return ok(['inspect', '--format', '{{.State.Health.Status}}', name]) === 'healthy' ? true : undefined;
    },
    90_000,
  );
}

let hostPort = 0;
let origin = '';
let credentials: { account_id: string; api_key: string; name: string }[] = [];

beforeAll(async () => {
  prepareImage(engine, buildArgs, tag, root);
  hostPort = await freePort();
  origin = `http://127.0.0.1:${hostPort}`;
  run(['rm', '-f', name]);
  // A port other than the image's 4010, given as a flag: the HEALTHCHECK must find it.
  ok([
    'run',
    '-d',
    '--name',
    name,
    '-p',
    `127.0.0.1:${hostPort}:5010`,
    '-v',
    `${volume}:/data`,
    tag,
    '--port',
    '5010',
    '--db',
    '/data/sandbox.sqlite',
    '--public-url',
    `http://localhost:${hostPort}`,
  ]);
  await until('/_sandbox/health from the host', () => health(origin));
  credentials = ((await (await fetch(`${origin}/_sandbox/credentials`)).json()) as { accounts: typeof credentials }).accounts;
}, 960_000);

afterAll(() => {
  run(['rm', '-f', name]);
  run(['volume', 'rm', '-f', volume]);
});

function createTransaction(account: { account_id: string; api_key: string }, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${origin}/v4/transactions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${account.api_key}`,
      'x-merchant-account-id': account.account_id,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

describe(`the container image (${engine})`, () => {
  it('answers /_sandbox/health from the host, and its HEALTHCHECK reports healthy on a changed port', async () => {
    expect(await health(origin)).toBe(true);
    expect(await healthy()).toBe(true);
  });

  it('runs as a non-root user', () => {
    const status = ok(['exec', name, 'cat', '/proc/1/status']);
    const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    expect(uid).toBeDefined();
    expect(uid).not.toBe('0');
  });

  it('serves the six webhook handler files the image ships (GET /_sandbox/webhook-handlers)', async () => {
    const res = await fetch(`${origin}/_sandbox/webhook-handlers`);
    expect(res.status).toBe(200);
    const { handlers } = (await res.json()) as { handlers: { path: string }[] };
    expect(handlers.map((h) => h.path)).toContain('examples/webhook-handlers/go/main.go');
    expect(handlers).toHaveLength(6);
  });

  it('serves the guides: GET /docs and every /docs/<page> answer HTML, with their stylesheet', async () => {
    // The merchants' guides: the contributor pages stay in the repository and are not served.
    const { CONTRIBUTOR_PAGES } = (await import(new URL('../../scripts/build-docs.mjs', import.meta.url).href)) as {
      CONTRIBUTOR_PAGES: string[];
    };
    const pages = readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -'.md'.length))
      .filter((page) => !CONTRIBUTOR_PAGES.includes(page));
    expect(pages.length).toBeGreaterThan(10);
    for (const path of ['/docs', ...pages.map((page) => `/docs/${page}`)]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await res.text(), path).toContain('</html>');
    }
    expect((await fetch(`${origin}/docs/docs.css`)).headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('payment links use --public-url, not the bind address', async () => {
    const checkout = credentials.find((a) => a.name === 'checkout')!;
    const res = await createTransaction(checkout, {
      amount: 4990,
      currency: 'EUR',
      description: 'Plan',
      return_url: 'http://shop.test/return',
    });
    expect(res.status).toBe(201);
    const tx = (await res.json()) as { id: string; payment_url: string };
    expect(tx.payment_url).toBe(`http://localhost:${hostPort}/pay/${tx.id}`);
    expect((await fetch(`${origin}/pay/${tx.id}`)).status).toBe(200);
  });

  it('SIGTERM exits 0, and --db on the data volume keeps the data across a restart', async () => {
    const direct = credentials.find((a) => a.name === 'direct')!;
    const res = await createTransaction(direct, directPayment());
    expect(res.status).toBe(201);
    const tx = (await res.json()) as { id: string };

    ok(['stop', '-t', '20', name], 60_000); // SIGTERM, SIGKILL only after 20 s
    expect(ok(['inspect', '--format', '{{.State.ExitCode}}', name])).toBe('0');
    expect(ok(['logs', name])).toContain('SIGTERM: stopping payment-sandbox');

    ok(['start', name]);
    await until('/_sandbox/health after the restart', () => health(origin));
    const got = await fetch(`${origin}/v4/transactions/${tx.id}`, {
      headers: { authorization: `Bearer ${direct.api_key}`, 'x-merchant-account-id': direct.account_id },
    });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { id: string }).id).toBe(tx.id);
  });
});

/** Whether 127.0.0.1:`port` is free now. */
const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** Whether a child process has ended (by its exit or a signal). */
const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** The containers of `tag` published on host `port`. */
const publishedOn = (port: number): string[] =>
  run(['ps', '-a', '--filter', `ancestor=${tag}`, '--format', '{{.ID}} {{.Ports}}'])
    .stdout.split('\n')
    .filter((l) => l.includes(`:${port}->`));

describe(`the CI guide's "In a container" recipes (${engine})`, () => {
  const guide = readFileSync(join(root, 'docs', 'ci.md'), 'utf8');

  // Substituted, and only these: the engine's name, the image's tag (the one this file built),
  // 4010 when taken here, and the app's 3000 by the receiver's own port (3000 is shared by every
  // test on this machine); `npx` runs the project's node_modules/.bin command, so its pid is the listener.
  it("docker run plus `payment-sandbox listen` on the host: a settled payment's webhook reaches the host receiver", async () => {
    const m = /```sh\n\s*(docker run --rm -p 4010:4010 payment-sandbox)\n\s*(npx payment-sandbox listen [^\n]*)\n\s*```/.exec(guide);
    expect(m, 'docs/ci.md: the run and listen block under "Webhooks to a server on the host"').not.toBeNull();
    const port = (await portFree(4010)) ? 4010 : await freePort();
    const receiver = await startReceiver();
    const dir = merchantCheckout();
    const [cmd, ...args] = m![1]!.replace('-p 4010:4010', `-p ${port}:4010`).split(' ');
    expect(cmd).toBe('docker');
    args[args.length - 1] = tag;
    const container = spawn(engine, args, { stdio: 'ignore' });
    const listenLine = m![2]!
      .replace('http://127.0.0.1:3000', receiver.origin)
      .replace('http://127.0.0.1:4010', `http://127.0.0.1:${port}`);
    let listenOut = '';
    let listener: ChildProcess | undefined;
    try {
      const sandboxOrigin = `http://127.0.0.1:${port}`;
      await until('the container to answer /_sandbox/health', () => health(sandboxOrigin));
      listener = spawn(
        'bash',
        ['--noprofile', '--norc', '-c', `npx() { local c="$1"; shift; exec "node_modules/.bin/$c" "$@"; }\n${listenLine}`],
        {
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      listener.stdout!.on('data', (c: Buffer) => (listenOut += c.toString()));
      listener.stderr!.on('data', (c: Buffer) => (listenOut += c.toString()));
      await until('the listener to connect', () => (listenOut.includes('listening to') ? true : undefined), 30_000);
      const accounts = ((await (await fetch(`${sandboxOrigin}/_sandbox/credentials`)).json()) as { accounts: typeof credentials }).accounts;
      const direct = accounts.find((a) => a.name === 'direct')!;
      const created = await fetch(`${sandboxOrigin}/v4/transactions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${direct.api_key}`,
          'x-merchant-account-id': direct.account_id,
          'content-type': 'application/json',
        },
        body: JSON.stringify(directPayment({ external_identifier: 'in-a-container' })),
      });
      expect(created.status).toBe(201);
      const tx = (await created.json()) as { id: string };
      expect((await fetch(`${sandboxOrigin}/_sandbox/transactions/${tx.id}/settle`, { method: 'POST' })).status).toBe(200);
      const hook = await receiver.waitForMatch((h) => h.raw.includes(tx.id), 30_000);
      expect(hook.path).toBe('/webhooks');
      expect(hook.verified, 'signed, bytes intact').toBe(true);
    } finally {
      listener?.kill('SIGTERM');
      container.kill('SIGTERM'); // the engine's client passes it on: the container stops, and --rm removes it
      await until(
        'the listener and the container to exit',
        () => (exited(container) && (!listener || exited(listener)) ? true : undefined),
        60_000,
      );
      await receiver.close();
    }
    expect(alive(listener.pid!), 'the listener by its pid').toBe(false);
    expect(alive(container.pid!), `the ${engine} run client by its pid`).toBe(false);
    expect(runningIn(dir)).toEqual([]);
    expect(publishedOn(port), 'no container left on the port').toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the podman health wait: `run -d`, then the bounded loop returns once the sandbox answers', async () => {
    const m = /```sh\n\s*(podman run -d --name payment-sandbox -p 4010:4010 payment-sandbox)\n\s*(for i in [^\n]*)\n\s*```/.exec(guide);
    expect(m, 'docs/ci.md: the podman block').not.toBeNull();
    const port = (await portFree(4010)) ? 4010 : await freePort();
    const container = `${name}-podman-wait`;
    // The container's name too: `payment-sandbox` may be another run's on a shared engine.
    const script = [
      m![1]!
        .replace(/^podman/, engine)
        .replace('--name payment-sandbox', `--name ${container}`)
        .replace('-p 4010:4010', `-p ${port}:4010`)
        .replace(/payment-sandbox$/, tag),
      m![2]!.replace('127.0.0.1:4010', `127.0.0.1:${port}`),
      `curl -fsS http://127.0.0.1:${port}/_sandbox/health`,
    ].join('\n');
    try {
      const res = spawnSync('bash', ['--noprofile', '--norc', '-e', '-c', script], { encoding: 'utf8', timeout: 120_000 });
      expect(res.status, res.stderr).toBe(0);
    } finally {
      run(['rm', '-f', container]);
    }
    expect(publishedOn(port)).toEqual([]);
  });
});

describe('start-up time (printed for the record, never asserted)', () => {
  it('prints how long `run` takes to the first healthy answer from the host, and to HEALTHCHECK healthy', async () => {
    const port = await freePort();
    const timed = `${name}-timed`;
    run(['rm', '-f', timed]);
    try {
      const started = performance.now();
      ok(['run', '-d', '--rm', '--name', timed, '-p', `127.0.0.1:${port}:4010`, tag]);
      const runReturned = performance.now() - started;
      // Polled as fast as the engine answers: the first healthy answer from the host...
      while ((await health(`http://127.0.0.1:${port}`)) !== true) {
        if (performance.now() - started > 60_000) throw new Error('no healthy answer in 60 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const answered = performance.now() - started;
      // ...and the image's HEALTHCHECK: run by hand with podman (no systemd timer here), docker's timer otherwise.
      for (;;) {
        if (
          engine === 'podman'
            ? run(['healthcheck', 'run', timed], 30_000).status === 0
            : ok(['inspect', '--format', '{{.State.Health.Status}}', timed]) === 'healthy'
        )
          break;
        if (performance.now() - started > 60_000) throw new Error('not healthy in 60 s');
        if (engine === 'docker') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const healthyAfter = performance.now() - started;
      console.log(
        `${engine} run -d to the first healthy answer from the host: ${(answered / 1000).toFixed(2)} s ` +
          `(run -d itself returned after ${(runReturned / 1000).toFixed(2)} s); to HEALTHCHECK healthy: ${(healthyAfter / 1000).toFixed(2)} s; ` +
          `load average ${loadavg()[0]!.toFixed(1)}`,
      );
      expect(answered).toBeGreaterThan(0);
    } finally {
      run(['rm', '-f', timed]);
    }
  });
});

describe('a failing install fails the build at the npm ci step', () => {
  /** A copy of the build context with `package.json`/`package-lock.json` replaced (the Dockerfile unchanged). */
  function brokenContext(pkg: Record<string, unknown>, lock: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-image-'));
    for (const f of [
      'Dockerfile',
      '.dockerignore',
      'tsconfig.json',
      'LICENSE',
      'README.md',
      'CONTRIBUTING.md',
      'src',
      'scripts',
      'docs',
      'bin',
      'public',
      'scenarios',
      'examples',
      'docker',
    ]) {
      cpSync(join(root, f), join(dir, f), { recursive: true });
    }
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
    return dir;
  }
  const lockOf = (pkg: { name: string; version: string }, deps: Record<string, string> = {}) => ({
    name: pkg.name,
    version: pkg.version,
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: pkg.name, version: pkg.version, dependencies: deps } },
  });

  it.each([
    [
      'npm ci exits non-zero (lock file out of sync)',
      { name: 'payment-sandbox', version: '0.0.0', dependencies: { 'left-pad': '1.3.0' } },
      {},
    ],
    [
      'npm ci exits 0 but dist/ is missing',
      { name: 'payment-sandbox', version: '0.0.0', scripts: { prepare: 'echo build skipped' } },
      undefined,
    ],
  ] as const)('%s', (_label, pkg, lockDeps) => {
    const dir = brokenContext(pkg, lockOf(pkg, lockDeps));
    try {
      const res = spawnSync(engine, ['build', ...buildArgs, '-t', `${tag}-broken`, '.'], { cwd: dir, encoding: 'utf8', timeout: 600_000 });
      const log = res.stdout + res.stderr;
      expect(res.status).not.toBe(0);
      // It stopped at the install step: the runtime stage never started.
      expect(log).toMatch(/RUN npm ci/);
      expect(log).not.toMatch(/COPY --from=build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      run(['rmi', '-f', `${tag}-broken`]);
    }
  });
});

// Keep the engine's name in the test output for the CI log.
it('uses docker where an engine answers, podman otherwise', () => {
  expect(['docker', 'podman']).toContain(engine);
  expect(execFileSync(engine, ['--version'], { encoding: 'utf8' })).toMatch(/version/i);
});
