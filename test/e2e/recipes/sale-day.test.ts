/**
 * docs/ci.md "Rehearsing a sale day", its shell blocks run as written from the guide, with bash,
 * in a merchant's project where the sandbox is installed: the start (`npx payment-sandbox
 * --rate-limit 25 --latency p50=80,p99=900`), the PATCH that sets one account apart, the
 * autocannon run against the sandbox, and the report read with jq. Substituted, and only these:
 * `npx` runs the project's `node_modules/.bin` command in place of the shell (so the started pid
 * is the sandbox itself, stopped by that pid); the port is `PAYMENT_SANDBOX_PORT` when 4010 is
 * taken; autocannon (this repository's dev dependency) runs 3 s instead of `-d 30`, and its
 * `order.json` is a card payment. autocannon never waits out `Retry-After`, and sends no `Idempotency-Key`: the report
 * names `ignored_retry_after` and `missing_idempotency_key`.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../../src/core/credentials/demo-credentials.js';
import { directPayment } from '../../support/app.js';
import { merchantCheckout } from '../../support/checkout.js';
import { freePort } from '../../support/ports.js';
import { alive, runningIn } from '../../support/processes.js';
import { until } from '../../support/until.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const guide = readFileSync(join(root, 'docs/ci.md'), 'utf8');
const section = guide.slice(guide.indexOf('## Rehearsing a sale day'));
const [start, patch, load, report] = [...section.matchAll(/```sh\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
const NPX = 'npx() { local c="$1"; shift; exec "node_modules/.bin/$c" "$@"; }';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) {
    for (const pid of runningIn(dir)) process.kill(pid, 'SIGKILL'); // only what a failed run left in its own folder
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Whether 127.0.0.1:`port` is free now. */
const free = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

describe('docs/ci.md: rehearsing a sale day', () => {
  it(
    'starts with a rate limit and latency, sets one account apart, and the report shows the load ignored Retry-After',
    { timeout: 90_000 },
    async () => {
      expect(start).toBe('npx payment-sandbox --rate-limit 25 --latency p50=80,p99=900');
      expect(load).toContain('-d 30');
      const dir = merchantCheckout();
      dirs.push(dir);
      symlinkSync(join(root, 'node_modules', '.bin', 'autocannon'), join(dir, 'node_modules', '.bin', 'autocannon'));
      const port = (await free(4010)) ? 4010 : await freePort();
      const sandboxUrl = `http://127.0.0.1:${port}`;
      const sandbox = spawn('bash', ['--noprofile', '--norc', '-c', `${NPX}\n${start}`], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...(port === 4010 ? {} : { PAYMENT_SANDBOX_PORT: String(port) }) },
      });
      let log = '';
      sandbox.stdout.on('data', (c: Buffer) => (log += c.toString()));
      sandbox.stderr.on('data', (c: Buffer) => (log += c.toString()));
      const exited = new Promise<number | null>((resolve) => sandbox.once('exit', resolve));
      try {
        await until('the ready line', () => (log.includes('payment-sandbox ready:') ? true : undefined), 20_000);
        expect(log).toContain(`port=${port}`);
        const direct = DEMO_ACCOUNTS.find((a) => a.account_id === 'acc_demo_direct')!;
        const env = { SANDBOX: sandboxUrl, API_KEY: direct.api_key };

        const patched = await bash(patch!, dir, env);
        expect(patched.code, patched.out).toBe(0);
        const account = (await (await fetch(`${sandboxUrl}/_sandbox/accounts/acc_demo_direct`)).json()) as Record<string, unknown>;
        expect(account).toMatchObject({ rate_limit: 10, latency: { p50_ms: 120, p99_ms: 2000 } });

        writeFileSync(join(dir, 'order.json'), JSON.stringify(directPayment()));
        const loaded = await bash(`${NPX}\n${load!.replace('-d 30', '-d 3')}`, dir, env);
        expect(loaded.code, loaded.out).toBe(0);
        expect(loaded.out).toMatch(/requests in/);

        const read = await bash(report!, dir, env);
        expect(read.code, read.out).toBe(0);
        expect(read.out).toContain('"code": "ignored_retry_after"');
        expect(read.out).toContain('"code": "missing_idempotency_key"');
      } finally {
        sandbox.kill('SIGTERM');
        expect(await exited).toBe(0);
      }
      expect(alive(sandbox.pid!), `pid ${sandbox.pid} still runs`).toBe(false);
      expect(runningIn(dir), 'processes still running in the project folder').toEqual([]);
    },
  );
});
