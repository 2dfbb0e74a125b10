/**
 * The npm package as a user gets it (`npm run test:package`, run by .ci/run, not by
 * `npm test`: installing builds better-sqlite3 from source, about a minute or more). Packs
 * the repository with `npm pack`, installs the tarball into an empty project with production
 * dependencies only (from the local npm cache where it can), and there runs `npx
 * payment-sandbox` plus a create over HTTP, a merchant's `node --test` file using
 * `startSandbox` and `verifyWebhook`, and a type check of a TypeScript consumer.
 *
 * The project's dependencies (better-sqlite3 compiled) are kept in the CI cache
 * (test/support/ci-cache.ts), keyed by the lockfile, the package's dependencies and the Node
 * version and platform: with an entry, the project starts from it and `npm install` adds the
 * packed package to it, compiling nothing; a changed lockfile or Node makes a new entry.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directPayment } from '../support/app.js';
import { cacheEntry, cacheKey } from '../support/ci-cache.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'sandbox-package-'));
const project = join(work, 'project');

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}
let packed: PackResult;

function sh(cmd: string, args: string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const res = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
  });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return res;
}

/** What the project's installed dependencies depend on: the lockfile, the package's dependencies, Node and the platform. */
function dependenciesKey(): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: unknown; peerDependencies?: unknown };
  return cacheKey([
    readFileSync(join(root, 'package-lock.json')),
    JSON.stringify([manifest.dependencies, manifest.peerDependencies]),
    process.version,
    `${process.platform}-${process.arch}`,
  ]);
}

/**
 * A folder of local prebuilds holding the better-sqlite3 binary this repository's `npm ci` compiled,
 * as better-sqlite3's installer (prebuild-install) looks for one: named for its version, Node's ABI
 * and the platform. The consumer's install takes it when it installs that same version on this
 * Node, as a merchant's install takes the published prebuild, instead of compiling it again (a
 * minute or two); any other version finds no file there and is compiled as usual.
 */
function localPrebuilds(): string {
  const folder = join(work, 'prebuilds');
  mkdirSync(folder, { recursive: true });
  const moduleDir = join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  sh('tar', ['-czf', join(folder, name), 'build/Release/better_sqlite3.node'], moduleDir, 60_000);
  return folder;
}

beforeAll(() => {
  // `prepare` builds dist/ (with .d.ts) before packing.
  const out = sh('npm', ['pack', '--json', '--pack-destination', work], root, 300_000).stdout;
  packed = (JSON.parse(out.slice(out.indexOf('['))) as PackResult[])[0]!;
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }));
  const started = Date.now();
  const prebuilds = localPrebuilds();
  const install = (): void => {
    sh('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], project, 600_000, {
      npm_config_better_sqlite3_local_prebuilds: prebuilds,
    });
  };
  // The dependencies as a fresh install left them (without the package itself): the cache entry.
  const { folder, hit } = cacheEntry('package-consumer', dependenciesKey(), (entry) => {
    install();
    cpSync(join(project, 'node_modules'), join(entry, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !/[\\/]node_modules[\\/](payment-sandbox|\.bin[\\/]payment-sandbox)$/.test(source),
    });
  });
  if (hit) {
    cpSync(join(folder, 'node_modules'), join(project, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    install();
  }
  const installSeconds = (Date.now() - started) / 1000;
  const installKb = Number(sh('du', ['-sk', 'node_modules'], project, 60_000).stdout.split('\t')[0]);
  // Figures for the record (never asserted): sizes and the install time on this machine.
  console.log(
    `packed ${(packed.size / 1024).toFixed(0)} kB (${(packed.unpackedSize / 1024).toFixed(0)} kB unpacked, ${packed.files.length} files); ` +
      `npm install --omit=dev ${installSeconds.toFixed(0)} s (dependencies ${hit ? 'from the CI cache' : 'installed, now cached'}); node_modules ${(installKb / 1024).toFixed(1)} MB`,
  );
  copyFileSync(join(here, 'consumer', 'merchant.test.mjs'), join(project, 'merchant.test.mjs'));
  copyFileSync(join(here, 'consumer', 'consumer.mts'), join(project, 'consumer.mts'));
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it('ships only what runs: dist with .d.ts, bin, public, scenarios, the handler examples, the compose file the guides name, README, LICENSE', () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of [
      'package.json',
      'LICENSE',
      'README.md',
      'bin/payment-sandbox.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/verify-webhook.d.ts',
      'dist/cli.js',
      'fixtures/fixtures.schema.json',
      'fixtures/shop.json',
      'fixtures/subscriptions.json',
      'examples/webhook-handlers/node/handler.mjs',
      'examples/webhook-handlers/go/main.go',
      'examples/webhook-handlers/java/Handler.java',
      'compose.yaml',
    ]) {
      expect(paths).toContain(p);
    }
    expect(paths.filter((p) => /^(src|test|docker|\.ci)\//.test(p) || /^(tsconfig\.json|Dockerfile)$/.test(p))).toEqual([]);
  });

  it('installs without any compiler or dev dependency', () => {
    // @types/better-sqlite3 (and the @types/node it needs) is a dependency: the package's .d.ts name better-sqlite3's types.
    for (const dev of ['typescript', 'vitest', 'tsx', 'playwright-core', 'autocannon']) {
      expect(existsSync(join(project, 'node_modules', dev)), dev).toBe(false);
    }
    expect(existsSync(join(project, 'node_modules', 'payment-sandbox', 'dist', 'index.js'))).toBe(true);
  });

  it('npx payment-sandbox serves the API: a create over HTTP, then stops on SIGTERM', async () => {
    // Its own process group, so SIGTERM reaches the sandbox under npx (npx does not forward it).
    const child = spawn('npx', ['--no-install', 'payment-sandbox', '--port', '0'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
    // The pipe closes once every process in the group that holds it has exited.
    const closed = new Promise<void>((resolve) => child.stdout.on('close', () => resolve()));
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner:\n${stdout}`)), 60_000);
        child.stdout.on('data', () => {
          const m = /payment-sandbox ready: url=(http:\/\/\S+)/.exec(stdout); // the ready line
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      const creds = (await (await fetch(`${origin}/_sandbox/credentials`)).json()) as {
        accounts: { name: string; account_id: string; api_key: string }[];
      };
      const direct = creds.accounts.find((a) => a.name === 'direct')!;
      const res = await fetch(`${origin}/v4/transactions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${direct.api_key}`,
          'x-merchant-account-id': direct.account_id,
          'content-type': 'application/json',
        },
        body: JSON.stringify(directPayment()),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ type: 'transaction', amount: 1050 });
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
    await closed;
    expect(stdout).toContain('SIGTERM: stopping payment-sandbox');
  });

  it("a merchant's node:test file runs startSandbox and verifyWebhook end to end", () => {
    const res = spawnSync(process.execPath, ['--test', 'merchant.test.mjs'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    expect(res.stdout + res.stderr).toMatch(/# pass 1/);
    expect(res.status).toBe(0);
  });

  it('the .d.ts and exports map type-check a TypeScript consumer', () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const res = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules', '@types'),
        'consumer.mts',
      ],
      { cwd: project, encoding: 'utf8', timeout: 120_000 },
    );
    expect(res.stdout + res.stderr).toBe('');
    expect(res.status).toBe(0);
  });
});
