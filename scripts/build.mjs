#!/usr/bin/env node
// `npm run build` and `prepare`: builds dist/ (tsc with declarations, the reference's Redoc
// files, the esbuild bundle of the CLI) only when its inputs changed since the last build.
// The inputs are hashed (src/**, tsconfig.json, package.json, package-lock.json and this file)
// into dist/.build-stamp once a build has succeeded; a build that finds the same hash there
// and every output present does nothing. That is what makes the first `npx payment-sandbox`
// in a fresh clone quick: npm's exec installs the project into its npx cache and runs
// `prepare` again, right after `npm ci` ran it. The docs (scripts/build-docs.mjs, quick) are
// rendered to dist/docs/ on every run, built or not.
//   node scripts/build.mjs           build if needed
//   node scripts/build.mjs --force   build regardless (also: PAYMENT_SANDBOX_BUILD_FORCE=1)
//   node scripts/build.mjs --hash    print the inputs' hash only
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = join(root, 'dist', '.build-stamp');
const inputs = ['tsconfig.json', 'package.json', 'package-lock.json', 'scripts/build.mjs'];
const outputs = ['dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'dist/bundle/cli.cjs', 'dist/reference/redoc.standalone.js'];

/** Every file under `dir`, relative to the root, in a stable order. */
function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** The hash of every input's path and bytes (a missing input counts as such). */
function inputHash() {
  const hash = createHash('sha256');
  hash.update(`node-major ${process.versions.node.split('.')[0]}\n`);
  for (const path of [...inputs, ...filesUnder('src')]) {
    hash.update(`${path}\0`);
    hash.update(existsSync(join(root, path)) ? readFileSync(join(root, path)) : '(missing)');
    hash.update('\0');
  }
  return hash.digest('hex');
}

function run(command, args) {
  const res = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (res.status !== 0) {
    const why = res.error ? res.error.message : `exit ${res.status ?? res.signal}`;
    process.stderr.write(`build: ${[command, ...args].map((a) => relative(root, a) || a).join(' ')} failed (${why})\n`);
    process.exit(res.status || 1);
  }
}

if (process.argv.includes('--hash')) {
  process.stdout.write(`${inputHash()}\n`);
  process.exit(0);
}
const force = process.argv.includes('--force') || process.env.PAYMENT_SANDBOX_BUILD_FORCE === '1';
const hash = inputHash();
const current = !force
  && existsSync(stampFile)
  && readFileSync(stampFile, 'utf8').trim() === hash
  && outputs.every((path) => existsSync(join(root, ...path.split('/'))));
if (current) {
  run(process.execPath, [join(root, 'scripts', 'build-docs.mjs')]);
  if (process.env.npm_lifecycle_event !== 'prepare') process.stdout.write('build: dist/ is current (node scripts/build.mjs --force builds anyway)\n');
  process.exit(0);
}

rmSync(stampFile, { force: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
run(process.execPath, [tsc, '-p', 'tsconfig.json', '--declaration']);
run('npm', ['run', '--silent', 'build:reference']);
run('npm', ['run', '--silent', 'build:bundle']);
run(process.execPath, [join(root, 'scripts', 'build-docs.mjs')]);
writeFileSync(stampFile, `${hash}\n`);
