#!/usr/bin/env node
// `npm run build` and `prepare`: dist/ from src/ by TypeScript's build mode (`tsc -b`, its
// state in dist/.tsbuildinfo: with nothing changed it checks and emits nothing, in about a third
// of a second), then the reference page's Redoc files when missing, and
// the esbuild bundle of the CLI when any compiled file is newer than it. So the `prepare` that
// npm's exec runs again on the first `npx payment-sandbox` after `npm ci` finds dist/ current.
// The docs (scripts/build-docs.mjs, quick) are rendered to dist/docs/ on every run.
//   node scripts/build.mjs           build what is out of date
//   node scripts/build.mjs --force   build everything (also: PAYMENT_SANDBOX_BUILD_FORCE=1)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const force = process.argv.includes('--force') || process.env.PAYMENT_SANDBOX_BUILD_FORCE === '1';

function run(command, args) {
  const res = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (res.status !== 0) {
    const why = res.error ? res.error.message : `exit ${res.status ?? res.signal}`;
    process.stderr.write(`build: ${[command, ...args].map((a) => relative(root, a) || a).join(' ')} failed (${why})\n`);
    process.exit(res.status || 1);
  }
}

/** The newest modification time of the compiled JavaScript under dist/ (not the bundle). */
function newestCompiled(dir = dist) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(dist, 'bundle') && path !== join(dist, 'reference')) newest = Math.max(newest, newestCompiled(path));
    } else if (entry.name.endsWith('.js')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

if (force) rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
run(process.execPath, [tsc, '-b', 'tsconfig.json']);
if (!existsSync(join(dist, 'reference', 'redoc.standalone.js'))) run('npm', ['run', '--silent', 'build:reference']);
const bundle = join(dist, 'bundle', 'cli.cjs');
if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestCompiled()) run('npm', ['run', '--silent', 'build:bundle']);
run(process.execPath, [join(root, 'scripts', 'build-docs.mjs')]);
