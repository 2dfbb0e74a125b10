/**
 * docs/ci.md "Parallel workers on one sandbox", run as written from the guide:
 *
 * - the vitest files (`test/global-setup.ts`, `test/setup-account.ts` as its `setupFiles`) in a
 *   merchant's project where `payment-sandbox` is this repository's build, with two test files
 *   that each advance their worker's clock by a different amount: each worker has an account of
 *   its own, and each clock moved by its own advance alone. The run's process is gone afterwards
 *   (checked by pid), and nothing runs in the project.
 * - the GitHub Actions matrix's account step, with bash, once per shard: `localhost:4010` is a
 *   sandbox of this test on a free port instead (4010 is shared by every test running here), and
 *   `$GITHUB_ENV` a file; each shard gets its own account and key.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox } from '../../../src/index.js';
import { merchantCheckout } from '../../support/checkout.js';
import { alive, runningIn, runToExit } from '../../support/processes.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const guide = readFileSync(join(root, 'docs/ci.md'), 'utf8');
const section = guide.slice(guide.indexOf('## Parallel workers on one sandbox'), guide.indexOf('## Rehearsing a sale day'));

/** The section's fenced blocks of one language, in order. */
const blocks = (lang: string): string[] => [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```', 'g'))].map((m) => m[1]!);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) {
    for (const pid of runningIn(dir)) process.kill(pid, 'SIGKILL'); // only what a failed run left in its own folder
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A test file of one worker: advances its own clock by `seconds`, then reads it. */
const workerTest = (seconds: number): string => `
import { expect, it } from 'vitest';
import { account, advance, sandboxUrl } from './setup-account.ts';
it('moves its own clock alone', async () => {
  expect(account.account_id).toMatch(/^acc_/);
  await advance(${seconds});
  const clock = await (await fetch(\`\${sandboxUrl}/_sandbox/accounts/\${account.account_id}/clock\`)).json();
  console.log('worker-account=' + account.account_id + ' offset=' + clock.offset_seconds);
  expect(Math.round(clock.offset_seconds)).toBe(${seconds});
});
`;

describe('docs/ci.md: parallel workers on one sandbox', () => {
  it('vitest: one globalSetup, an account per worker, each clock moved by its own worker alone', { timeout: 90_000 }, async () => {
    const [globalSetup, setupAccount] = blocks('ts');
    expect(globalSetup).toMatch(/^\/\/ test\/global-setup\.ts$/m);
    expect(setupAccount).toMatch(/^\/\/ test\/setup-account\.ts \(setupFiles: runs once in each worker\)$/m);
    const dir = merchantCheckout();
    dirs.push(dir);
    symlinkSync(join(root, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'test', 'global-setup.ts'), globalSetup!);
    writeFileSync(join(dir, 'test', 'setup-account.ts'), setupAccount!);
    writeFileSync(
      join(dir, 'vitest.config.ts'),
      "export default { test: { globalSetup: ['./test/global-setup.ts'], setupFiles: ['./test/setup-account.ts'], maxWorkers: 2 } };\n",
    );
    writeFileSync(join(dir, 'test', 'month.test.ts'), workerTest(30 * 86_400));
    writeFileSync(join(dir, 'test', 'hour.test.ts'), workerTest(3_600));
    const res = await runToExit(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], dir, { CI: '1' });
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(/2 passed/);
    const accounts = [...res.out.matchAll(/worker-account=(\S+) offset=(\d+)/g)].map((m) => m[1]);
    expect(accounts).toHaveLength(2);
    expect(new Set(accounts).size, 'an account per worker').toBe(2);
    expect(alive(res.pid), `pid ${res.pid} still runs`).toBe(false);
    expect(runningIn(dir), 'processes still running in the project folder').toEqual([]);
  });

  it('GitHub Actions matrix: the account step gives each shard its own account and key', { timeout: 60_000 }, async () => {
    const workflow = parse(blocks('yaml')[0]!) as {
      jobs: { test: { services: { sandbox: { ports: string[] } }; steps: { run?: string }[] } };
    };
    expect(workflow.jobs.test.services.sandbox.ports).toEqual(['4010:4010']);
    const step = workflow.jobs.test.steps.find((s) => s.run?.includes('/_sandbox/accounts'))!.run!;
    const sandbox = await startSandbox({ quiet: true });
    const dir = mkdtempSync(join(tmpdir(), 'matrix-'));
    dirs.push(dir);
    try {
      const got: Record<string, string>[] = [];
      for (const shard of [1, 2]) {
        const envFile = join(dir, `env-${shard}`);
        writeFileSync(envFile, '');
        const script = step.replaceAll('${{ matrix.shard }}', String(shard)).replaceAll('http://localhost:4010', sandbox.url);
        const res = await runToExit('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], dir, { GITHUB_ENV: envFile });
        expect(res.code, res.out).toBe(0);
        got.push(
          Object.fromEntries(
            readFileSync(envFile, 'utf8')
              .trim()
              .split('\n')
              .map((l) => l.split('=', 2) as [string, string]),
          ),
        );
      }
      for (const env of got) {
        expect(env.SANDBOX_ACCOUNT_ID).toMatch(/^acc_/);
        expect(env.SANDBOX_API_KEY).toBeTruthy();
        const res = await fetch(`${sandbox.apiUrl}/transactions`, {
          headers: { authorization: `Bearer ${env.SANDBOX_API_KEY}`, 'x-merchant-account-id': env.SANDBOX_ACCOUNT_ID! },
        });
        expect(res.status).toBe(200);
      }
      expect(got[0]!.SANDBOX_ACCOUNT_ID).not.toBe(got[1]!.SANDBOX_ACCOUNT_ID);
    } finally {
      await sandbox.stop();
    }
  });
});
