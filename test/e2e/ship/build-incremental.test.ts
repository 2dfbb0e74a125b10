/**
 * `scripts/build.mjs` (`npm run build` and `prepare`) on the real project, whose dist/ the
 * test run's `pretest` built: a build with nothing changed emits nothing (TypeScript's build
 * mode finds every output current, the reference and the bundle are left as they are), so the
 * `prepare` that npm's exec runs on the first `npx payment-sandbox` after `npm ci` costs no rebuild.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const outputs = [
  'dist/index.js',
  'dist/index.d.ts',
  'dist/cli.js',
  'dist/bundle/cli.cjs',
  'dist/reference/redoc.standalone.js',
  'dist/.tsbuildinfo',
];
const mtimes = () => outputs.map((path) => statSync(`${root}${path}`).mtimeMs);

describe('the build (scripts/build.mjs)', () => {
  it('emits nothing when dist/ is current', () => {
    const before = mtimes();
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.PAYMENT_SANDBOX_BUILD_FORCE;
    const res = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8', env, timeout: 60_000 });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(mtimes()).toEqual(before);
  });
});
