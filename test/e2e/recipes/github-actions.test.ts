/**
 * examples/github-actions.yml, run as written where it needs no runner: its `run:` steps that
 * start the sandbox, print the go-live report and stop it run through bash (as GitHub Actions
 * runs them: `bash -e -o pipefail`) in a folder where `npx payment-sandbox` is this
 * repository's built CLI, with the job's env (its port swapped for a free one). The start step
 * waits for --port-file with a bound and fails at once, with the log, when the sandbox exits.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../support/ports.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  if?: string;
}
const workflow = parse(readFileSync(join(root, 'examples/github-actions.yml'), 'utf8')) as {
  jobs: Record<string, { env: Record<string, string | number>; steps: Step[] }>;
};
const job = Object.values(workflow.jobs)[0]!;
const step = (name: string): Step => {
  const found = job.steps.find((s) => s.name === name);
  if (!found?.run) throw new Error(`examples/github-actions.yml has no run step "${name}"`);
  return found;
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A merchant's checkout where `npx payment-sandbox` is this repository's build (the Install step's result). */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gha-recipe-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', 'payment-sandbox'));
  symlinkSync(join(root, 'bin', 'payment-sandbox.js'), join(dir, 'node_modules', '.bin', 'payment-sandbox'));
  return dir;
}

function runStep(name: string, cwd: string, port: number): Promise<{ code: number | null; out: string; ms: number }> {
  const env = {
    ...process.env,
    ...Object.fromEntries(Object.entries(job.env).map(([k, v]) => [k, String(v)])),
    PAYMENT_SANDBOX_PORT: String(port),
    npm_config_yes: 'false',
  };
  const started = Date.now();
  const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step(name).run!], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  // The step's own shell ends; the sandbox it started keeps running, as on a runner.
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, ms: Date.now() - started })));
}

describe('examples/github-actions.yml', () => {
  it('installs the sandbox from its git repository and sends webhooks to the app', () => {
    expect(step('Install payment-sandbox').run).toContain('npm install --no-save "payment-sandbox@$PAYMENT_SANDBOX_SOURCE"');
    expect(String(job.env.PAYMENT_SANDBOX_SOURCE)).toMatch(/^git\+https:\/\//);
    expect(step('Start payment-sandbox').run).toContain('--notification-url http://127.0.0.1:3000/webhooks');
    expect(JSON.stringify(workflow)).not.toContain('your-org');
  });

  it(
    'its start, report and stop steps run as written: ready within the bound, a JUnit report, then stopped',
    { timeout: 120_000 },
    async () => {
      const dir = checkout();
      const port = await freePort();
      const start = await runStep('Start payment-sandbox', dir, port);
      expect(start.code, start.out).toBe(0);
      expect(JSON.parse(start.out.trim().split('\n').at(-1)!)).toMatchObject({ status: 'ok' });
      expect(readFileSync(join(dir, '.sandbox-port'), 'utf8').trim()).toBe(String(port));
      const health = (await fetch(`http://127.0.0.1:${port}/_sandbox/health`).then((r) => r.json())) as { status: string };
      expect(health.status).toBe('ok');

      const report = await runStep('Go-live report', dir, port);
      expect(report.code, report.out).toBe(0);
      expect(readFileSync(join(dir, 'go-live.xml'), 'utf8')).toContain('<testsuites');

      const pid = Number(readFileSync(join(dir, '.sandbox-pid'), 'utf8'));
      const stop = await runStep('Stop payment-sandbox', dir, port);
      expect(stop.code, stop.out).toBe(0);
      const deadline = Date.now() + 15_000;
      while (spawnSync('kill', ['-0', String(pid)]).status === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(spawnSync('kill', ['-0', String(pid)]).status).not.toBe(0);
    },
  );

  it('the start step fails at once, showing the log, when the sandbox exits (its port taken)', { timeout: 60_000 }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const start = await runStep('Start payment-sandbox', checkout(), port);
      expect(start.code).toBe(1);
      expect(start.out).toContain('payment-sandbox exited:');
      expect(start.out).toContain('already in use');
      expect(start.ms).toBeLessThan(30_000);
    } finally {
      taken.close();
    }
  });
});
