/**
 * `npm test`: every tier. The tiers are projects, so one can run alone
 * (`npx vitest run --config test/vitest.config.ts --project unit`): unit (pure modules and
 * the domain with fakes of its ports), api (the app through app.request), e2e (real sockets,
 * the CLI, the webhook receiver, headless Chromium). The import rules between features and core
 * are checked by `npm run lint` (the boundaries rule), not by a tier.
 *
 * Every tier runs its files on worker threads in one shared module graph per worker
 * (`isolate: false`), three workers at once. Vitest's default on a 2-core machine is one worker
 * (the cores minus one) with a fresh process and module graph per file: a second of start and
 * imports for each of some 250 files, while most e2e files spend their time waiting on sockets,
 * processes and the browser. Tests therefore must not mock modules, stub globals or change
 * `process.env`, and must close what they open (servers, browsers, child processes).
 *
 * Transformed modules are kept on disk between runs (`experimental.fsModuleCache`, in
 * node_modules/.experimental-vitest-cache, keyed by each file's content): a later run of any
 * tier skips most of the TypeScript transform (the unit tier: about 1.9 s of transform -> 0.5 s).
 *
 * `npm run coverage` runs every tier with `--coverage`: V8's line, statement and branch coverage
 * of `src/**` (code run in the test processes; not the CLI processes the e2e tier starts), a
 * text summary, and the full report in coverage/ (HTML, and coverage-summary.json), also when a
 * test failed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const tier = (name: string) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`] },
});

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'threads',
    isolate: false,
    maxWorkers: 3,
    experimental: { fsModuleCache: true },
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      reporter: ['text-summary', 'html', 'json-summary'],
      reportsDirectory: 'coverage',
      reportOnFailure: true,
    },
    projects: [tier('unit'), tier('api'), tier('e2e')],
  },
});
