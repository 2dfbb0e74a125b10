#!/usr/bin/env node
// The `payment-sandbox` command. Runs the CLI bundled in dist/bundle/cli.cjs (dist/cli.js and
// its modules, zod and Hono in one file, built by `npm run build`, which `npm ci` and `npm
// install` run through the `prepare` script): one file loads several times faster than the
// few hundred modules of dist/ one by one, and V8's compiled code of it is kept on disk
// between runs, so later starts skip most compiling. Node >= 22.1 has that cache built in
// (`module.enableCompileCache`); on Node 20 this file keeps it (`vm.Script` cached data) in
// a folder of the system's temporary folder that only the current user may write.
// NODE_DISABLE_COMPILE_CACHE=1 turns either off.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const BUNDLE = fileURLToPath(new URL('../dist/bundle/cli.cjs', import.meta.url));
const requireFromBundle = nodeModule.createRequire(BUNDLE);
const cacheOff = process.env.NODE_DISABLE_COMPILE_CACHE === '1';

/** The bundle's exports, loaded with V8's code cache where one can be kept. */
function loadBundle() {
  if (typeof nodeModule.enableCompileCache === 'function') {
    if (!cacheOff) nodeModule.enableCompileCache();
    return requireFromBundle(BUNDLE);
  }
  const bytes = readFileSync(BUNDLE);
  const source = bytes.toString('utf8');
  const cacheFile = cacheOff ? undefined : cacheFileFor(bytes);
  let cachedData;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // no cache yet
    }
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    // the bundle's import() of node-forge and qrcode (found from bin/ as from dist/bundle/)
    importModuleDynamically: (specifier) => import(specifier),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, requireFromBundle, module, BUNDLE, dirname(BUNDLE));
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
    // After start-up, so the functions compiled while starting are in the cache too.
    setTimeout(() => writeCache(cacheFile, script.createCachedData()), 1000).unref();
  }
  return module.exports;
}

/**
 * A file for this bundle's cache in a folder of the current user's only, or undefined. It is
 * named by a hash of the bundle's bytes: V8 checks cached code against the source's length
 * only, and npm gives every packed file the same mtime, so a key of size and mtime ran the
 * old code after an upgrade of the same size. SHA-1 of the few MB takes a few milliseconds.
 */
function cacheFileFor(bytes) {
  try {
    const uid = process.getuid?.();
    if (uid === undefined) return undefined;
    const dir = join(tmpdir(), `payment-sandbox-compile-cache-${uid}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const folder = statSync(dir);
    // Code from the cache runs as this process: only a folder that nobody else may write.
    if (!folder.isDirectory() || folder.uid !== uid || (folder.mode & 0o022) !== 0) return undefined;
    const hash = createHash('sha1').update(bytes).digest('hex');
    return join(dir, `cli-${hash}-${process.version}-${process.arch}.bin`);
  } catch {
    return undefined;
  }
}

function writeCache(file, data) {
  try {
    const temporary = `${file}.${process.pid}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch {
    // a cache is an optimisation only
  }
}

const { main } = loadBundle();

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`payment-sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
