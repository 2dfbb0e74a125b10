/**
 * `scripts/build.mjs` (`npm run build` and `prepare`): a build that finds dist/ current does
 * nothing, so the `prepare` that npm's exec runs on the first `npx payment-sandbox` after
 * `npm ci` costs nothing. Run as a real process in a copy of the script in a scratch project
 * that has no TypeScript: any attempt to build there fails, so a quiet exit 0 shows it skipped.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../scripts/build.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'payment-sandbox-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const OUTPUTS = ['dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'dist/bundle/cli.cjs', 'dist/reference/redoc.standalone.js'];

function write(path: string, text: string): void {
  mkdirSync(dirname(join(work, path)), { recursive: true });
  writeFileSync(join(work, path), text);
}

function build(...args: string[]): { status: number | null; out: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_lifecycle_event: 'build' };
  delete env.PAYMENT_SANDBOX_BUILD_FORCE;
  const res = spawnSync(process.execPath, [join(work, 'scripts/build.mjs'), ...args], { cwd: work, encoding: 'utf8', env, timeout: 20_000 });
  return { status: res.status, out: res.stdout + res.stderr };
}

/** A project whose dist/ was built from its current inputs (the stamp holds their hash). */
function builtProject(): void {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'scripts'), { recursive: true });
  copyFileSync(SCRIPT, join(work, 'scripts/build.mjs'));
  write('package.json', JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  write('package-lock.json', '{}');
  write('tsconfig.json', '{}');
  write('src/index.ts', 'export const a = 1;\n');
  write('src/http/app.ts', 'export const b = 2;\n');
  for (const out of OUTPUTS) write(out, '// built\n');
  const hash = build('--hash');
  expect(hash.status).toBe(0);
  write('dist/.build-stamp', hash.out.trim());
}

describe('the incremental build (scripts/build.mjs)', () => {
  beforeEach(builtProject);

  it('does nothing when dist/ was built from the same inputs', () => {
    const res = build();
    expect(res.status).toBe(0);
    expect(res.out).toContain('dist/ is current');
    expect(readFileSync(join(work, 'dist/index.js'), 'utf8')).toBe('// built\n');
  });

  it.each([
    ['a source file changed', () => write('src/http/app.ts', 'export const b = 3;\n')],
    ['a source file was added', () => write('src/new.ts', 'export {};\n')],
    ['a source file was removed', () => rmSync(join(work, 'src/http/app.ts'))],
    ['the lock file changed', () => write('package-lock.json', '{"lockfileVersion":3}')],
    ['tsconfig.json changed', () => write('tsconfig.json', '{"compilerOptions":{}}')],
    ['an output is missing', () => rmSync(join(work, 'dist/bundle/cli.cjs'))],
  ])('builds again when %s (here it fails: the scratch project has no TypeScript)', (_label, change) => {
    change();
    const res = build();
    expect(res.status).not.toBe(0);
    expect(res.out).not.toContain('dist/ is current');
    // The stamp goes first, so a failed build is never taken for a current one.
    expect(existsSync(join(work, 'dist/.build-stamp'))).toBe(false);
  });

  it('builds again with --force', () => {
    const res = build('--force');
    expect(res.status).not.toBe(0);
    expect(res.out).not.toContain('dist/ is current');
  });
});
