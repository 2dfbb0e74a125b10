/**
 * Vitest config of the slow shipping checks, outside `npm test`: `npm run test:package`
 * (pack, install with production dependencies only, run) and `npm run test:image` (build and
 * run the container image). `.ci/run` runs both after `npm test`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/package/**/*.check.ts', 'test/image/**/*.check.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
