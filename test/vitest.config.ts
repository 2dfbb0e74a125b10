/**
 * `npm test`: every tier. The tiers are projects, so one can run alone
 * (`npx vitest run --config test/vitest.config.ts --project unit`): unit (pure modules and
 * the domain with fakes of its ports), api (the app through app.request), e2e (real sockets,
 * the CLI, the webhook receiver, headless Chromium) and architecture (imports).
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
    pool: 'forks',
    projects: [tier('unit'), tier('api'), tier('e2e'), tier('architecture')],
  },
});
