/**
 * docs/ci.md "In your test suite", each block run as written, taken from the guide, in a
 * merchant's project where `payment-sandbox` is this repository's build (test/support/checkout):
 *
 * - **node:test**: the block is the test file, run by `node --test`; its payment settles and
 *   its webhook is delivered. The merchant's handler it names (`http://127.0.0.1:3000/webhooks`)
 *   is the tests' receiver on a free port instead: port 3000 is shared by every test running here.
 * - **vitest**: the globalSetup file as printed, with the config its first comment line gives,
 *   run by vitest in the project; a test reads the URL with `inject('sandboxUrl')`.
 * - **jest**: jest is not installed here, so its two files run as jest runs them: the setup's
 *   default export, then the teardown's, in one process, which must then exit on its own.
 * - `verifyWebhook`: both lines, over a delivery the receiver took (rsa, and `--webhook-signing hmac`).
 *
 * Each run's process is gone afterwards (checked by pid), and nothing runs in the project.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/index.js';
import { verifyWebhook } from '../../../src/verify-webhook.js';
import { directPayment } from '../../support/app.js';
import { merchantCheckout } from '../../support/checkout.js';
import { alive, runningIn, runToExit, type FinishedProcess } from '../../support/processes.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const guide = readFileSync(join(root, 'docs/ci.md'), 'utf8');
const section = guide.slice(guide.indexOf('## In your test suite'), guide.indexOf('## In a container'));

/** The first fenced block after `label` in the section "In your test suite". */
function blockAfter(label: string): string {
  const at = section.indexOf(label);
  if (at < 0) throw new Error(`docs/ci.md "In your test suite" has no ${label}`);
  const block = /```(?:js|ts)\n([\s\S]*?)\n```/.exec(section.slice(at))?.[1];
  if (block === undefined) throw new Error(`docs/ci.md: no code block after ${label}`);
  return block;
}

const dirs: string[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const dir of dirs) {
    for (const pid of runningIn(dir)) process.kill(pid, 'SIGKILL'); // only what a failed run left in its own folder
    rmSync(dir, { recursive: true, force: true });
  }
  for (const r of receivers) await r.close();
});

function project(): string {
  const dir = merchantCheckout();
  dirs.push(dir);
  return dir;
}

/** Runs `node args` in `dir`; resolves with its exit code, output and pid once it has exited. */
const node = (dir: string, args: string[], env: Record<string, string> = {}): Promise<FinishedProcess> =>
  runToExit(process.execPath, args, dir, env);

function expectNothingLeft(dir: string, pid: number): void {
  expect(alive(pid), `pid ${pid} still runs`).toBe(false);
  expect(runningIn(dir), 'processes still running in the project folder').toEqual([]);
}

describe('docs/ci.md: in your test suite', () => {
  it('node:test: the printed test file passes (a payment settles, its webhook is delivered)', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const dir = project();
    const code = blockAfter('**node:test**');
    expect(code).toContain('http://127.0.0.1:3000/webhooks');
    writeFileSync(join(dir, 'payment.test.mjs'), code.replaceAll('http://127.0.0.1:3000', receiver.origin));
    const run = await node(dir, ['--test', 'payment.test.mjs']);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/# pass 1\b/);
    expect(receiver.received.some((h) => h.verified)).toBe(true);
    expectNothingLeft(dir, run.pid);
  });

  it('vitest: the printed globalSetup starts the sandbox, a test injects its URL, and it stops', { timeout: 60_000 }, async () => {
    const dir = project();
    const code = blockAfter('**vitest**');
    const config = /^\/\/ vitest\.config\.ts: (test: \{.*\})$/m.exec(code)?.[1];
    expect(config).toBeDefined();
    const setupPath = /^\/\/ (test\/sandbox-setup\.ts)$/m.exec(code)?.[1];
    expect(setupPath).toBe('test/sandbox-setup.ts');
    const inTest = /^\/\/ in a test: (.*)$/m.exec(code)?.[1];
    expect(inTest).toBe("const url = inject('sandboxUrl');");
    symlinkSync(join(root, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'vitest.config.ts'), `export default { ${config} };\n`);
    writeFileSync(join(dir, setupPath!), code);
    writeFileSync(
      join(dir, 'test', 'health.test.ts'),
      `import { expect, inject, it } from 'vitest';\nit('reaches the sandbox', async () => {\n  ${inTest}\n` +
        `  const res = await fetch(\`\${url}/_sandbox/health\`);\n  expect(res.status).toBe(200);\n});\n`,
    );
    const run = await node(dir, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { CI: '1' });
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/1 passed/);
    expectNothingLeft(dir, run.pid);
  });

  it('jest: the printed setup and teardown start the sandbox, pass its API URL, and stop it', { timeout: 60_000 }, async () => {
    const dir = project();
    const code = blockAfter('**jest**');
    const files = [...code.matchAll(/^\/\/ (sandbox-(?:setup|teardown)\.mjs)\n([\s\S]*?)(?=^\/\/ sandbox-|$(?![\s\S]))/gm)];
    expect(files.map((m) => m[1])).toEqual(['sandbox-setup.mjs', 'sandbox-teardown.mjs']);
    for (const [, name, text] of files) writeFileSync(join(dir, name!), text!);
    expect(code).toMatch(/globalSetup: '\.\/sandbox-setup\.mjs', globalTeardown: '\.\/sandbox-teardown\.mjs'/);
    // As jest runs them: one process, setup, a suite reading PAYMENT_API_URL, teardown; then it must exit by itself.
    const runner = `
      const setup = (await import('./sandbox-setup.mjs')).default;
      const teardown = (await import('./sandbox-teardown.mjs')).default;
      await setup();
      const res = await fetch(process.env.PAYMENT_API_URL + '/transactions', { headers: globalThis.__SANDBOX__.credentials.direct.headers });
      console.log('api-status=' + res.status);
      await teardown();
    `;
    writeFileSync(join(dir, 'run-jest-hooks.mjs'), runner);
    const run = await node(dir, ['run-jest-hooks.mjs']);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('api-status=200');
    expectNothingLeft(dir, run.pid);
  });

  it('verifyWebhook: both printed lines accept a delivery as the handler received it', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const code = blockAfter('verifyWebhook` (also');
    const lines = code.split('\n').filter((l) => l.startsWith('verifyWebhook('));
    expect(lines).toHaveLength(2);
    expect(code).toMatch(/^import \{ verifyWebhook \} from 'payment-sandbox\/webhooks';$/m);
    // One sandbox per signing mode; `body` and `headers` are what the handler received, as the block's comment says.
    for (const [i, mode] of (['rsa', 'hmac'] as const).entries()) {
      const secret = 'whsec_recipe';
      const sandbox = await startSandbox({
        quiet: true,
        notificationUrl: receiver.url,
        ...(mode === 'hmac' ? { webhookSigning: 'hmac' as const, webhookSecret: secret } : {}),
      });
      try {
        const res = await fetch(`${sandbox.apiUrl}/transactions`, {
          method: 'POST',
          headers: { ...sandbox.credentials.direct.headers, 'content-type': 'application/json' },
          body: JSON.stringify(directPayment({ external_identifier: `verify-${mode}` })),
        });
        const tx = (await res.json()) as { id: string };
        await sandbox.settle(tx.id);
        const hook = await receiver.waitForMatch((h) => h.raw.includes(tx.id));
        const line = lines[i]!.replace(/;.*$/, '');
        const run = (body: Buffer, headers: IncomingHttpHeaders): unknown =>
          new Function('verifyWebhook', 'body', 'headers', 'sandbox', 'process', `return ${line};`)(verifyWebhook, body, headers, sandbox, {
            env: { WEBHOOK_SECRET: secret },
          });
        expect(run(Buffer.from(hook.raw, 'utf8'), hook.headers), `${mode}: ${line}`).toBe(true);
        expect(run(Buffer.from(hook.raw.replace(tx.id, 'tx_other'), 'utf8'), hook.headers), `${mode}: a changed body`).toBe(false);
      } finally {
        await sandbox.stop();
      }
    }
  });
});
