/**
 * examples/github-actions.yml, parsed, and what it claims checked: the `sandbox-image` job builds
 * the sandbox's image with the layer cache and pushes it; the `test` job runs exactly that image
 * as a `services:` container on port 4010. The steps that need no runner run through bash (as
 * GitHub Actions runs them: `bash -e -o pipefail`) in a folder where `node_modules/.bin` holds
 * this repository's CLI, with the job's env pointed at a sandbox and a receiver of this test:
 * the health wait, the listener (a webhook reaches the app, then the listener is stopped, checked
 * by pid), and the report gate. Every `payment-sandbox` flag the file names is one its
 * command takes, and docs/ci.md describes this file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { directPayment, headers } from '../../support/app.js';
import { perTest } from '../../support/servers.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const t = perTest();

interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string | boolean>;
}
interface Job {
  needs?: string;
  outputs?: Record<string, string>;
  env?: Record<string, string | number>;
  services?: Record<string, { image: string; ports: (string | number)[]; credentials?: Record<string, string> }>;
  steps: Step[];
}
const text = readFileSync(join(root, 'examples/github-actions.yml'), 'utf8');
const workflow = parse(text) as { env: Record<string, string>; jobs: Record<string, Job> };
const build = workflow.jobs['sandbox-image']!;
const job = workflow.jobs.test!;
const step = (name: string): Step => {
  const found = job.steps.find((s) => s.name === name);
  if (!found?.run) throw new Error(`examples/github-actions.yml has no run step "${name}"`);
  return found;
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A merchant's checkout after `npm ci` on a slow runner: `node_modules/.bin/payment-sandbox` is
 * this repository's CLI, and `listen` takes 1.5 s before it starts (`exec`, so `$!` is still the
 * listener): a step that waited a fixed second would let the tests run before its stream opened.
 */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gha-recipe-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', 'payment-sandbox'));
  const bin = join(dir, 'node_modules', '.bin', 'payment-sandbox');
  const cli = join(root, 'bin', 'payment-sandbox.js');
  writeFileSync(bin, `#!/bin/sh\n[ "$1" = listen ] && sleep 1.5\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
  return dir;
}

function runStep(name: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const jobEnv = Object.fromEntries(Object.entries(job.env ?? {}).map(([k, v]) => [k, String(v)]));
  const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step(name).run!], {
    cwd,
    env: { ...process.env, ...jobEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  // The step's own shell ends; a process it started in the background keeps running, as on a runner.
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

const alive = (pid: number): boolean => spawnSync('kill', ['-0', String(pid)]).status === 0;

describe('examples/github-actions.yml', () => {
  it("builds the image with the layer cache, pushes it, and runs that image as the test job's service on port 4010", () => {
    const push = build.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(push?.with).toMatchObject({
      push: true,
      'cache-from': expect.stringMatching(/^type=gha\b/),
      'cache-to': expect.stringMatching(/^type=gha\b/),
    });
    const source = build.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(source?.with).toMatchObject({ repository: '${{ env.PAYMENT_SANDBOX_REPOSITORY }}', path: push!.with!.context });
    expect(workflow.env.PAYMENT_SANDBOX_REPOSITORY).toBe('payment-sandbox/payment-sandbox');
    expect(push!.with!.tags).toBe('${{ steps.image.outputs.image }}');
    expect(build.outputs?.image).toBe('${{ steps.image.outputs.image }}');
    expect(job.needs).toBe('sandbox-image');
    const service = job.services?.['payment-sandbox'];
    expect(service?.image).toBe('${{ needs.sandbox-image.outputs.image }}');
    expect(service?.ports).toEqual(['4010:4010']);
    expect(job.env?.PAYMENT_SANDBOX_URL).toBe('http://localhost:4010');
    expect(job.env?.PAYMENT_API_URL).toBe('http://localhost:4010/v4');
    // no sandbox started by a step: the service is the sandbox
    expect(text).not.toMatch(/npx payment-sandbox(?! report| listen)/);
  });

  it('the image name step tags the image by the sandbox commit, lower-cased for the registry', () => {
    const run = build.steps.find((s) => s.id === 'image')!.run!;
    const dir = mkdtempSync(join(tmpdir(), 'gha-image-'));
    dirs.push(dir);
    spawnSync('git', ['init', '-q', join(dir, 'payment-sandbox')]);
    spawnSync('git', [
      '-C',
      join(dir, 'payment-sandbox'),
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'x',
    ]);
    const output = join(dir, 'out');
    const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', run], {
      cwd: dir,
      env: { ...process.env, GITHUB_REPOSITORY_OWNER: 'Acme-Shop', GITHUB_OUTPUT: output },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(output, 'utf8')).toMatch(/^image=ghcr\.io\/acme-shop\/payment-sandbox:[0-9a-f]{7,}\n$/);
  });

  it('waits for health, forwards a webhook to the app through the listener, gates on the report, and stops the listener', async () => {
    const sandbox = await t.serve({ ticker: true });
    const app = await t.receive();
    const dir = checkout();
    const env = { PAYMENT_SANDBOX_URL: sandbox.url, PAYMENT_API_URL: `${sandbox.url}/v4`, WEBHOOK_URL: app.url };

    const wait = await runStep('Wait for payment-sandbox', dir, env);
    expect(wait.code, wait.out).toBe(0);

    const forward = await runStep('Forward webhooks', dir, env);
    expect(forward.code, forward.out).toBe(0);
    const pid = Number(readFileSync(join(dir, '.listen-pid'), 'utf8'));
    t.defer(() => void (alive(pid) && process.kill(pid)));
    expect(alive(pid)).toBe(true);

    // the app's tests: a payment, settled; the webhook reaches the app on 127.0.0.1 through the listener
    const created = await fetch(`${sandbox.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(directPayment({ external_identifier: 'gha-1' })),
    });
    expect(created.status).toBe(201);
    const tx = (await created.json()) as { id: string };
    await fetch(`${sandbox.url}/_sandbox/transactions/${tx.id}/settle`, { method: 'POST' });
    const hook = await app.waitForMatch((h) => h.raw.includes(tx.id));
    expect(hook.verified).toBe(true);

    // the gate: these tests never went through the recommended scenarios, so the job fails
    const report = await runStep('Go-live report', dir, env);
    expect(report.code).toBe(1);
    expect(readFileSync(join(dir, 'go-live.xml'), 'utf8')).toContain('coverage_missing');

    const stop = await runStep('Stop the listener', dir, env);
    expect(stop.code, stop.out).toBe(0);
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid), 'the listener is gone').toBe(false);
  });

  it('names only flags its commands take', () => {
    const used = [...text.matchAll(/payment-sandbox (\w[\w-]*)((?: [^\n]*)?)/g)].filter(([, sub]) => ['listen', 'report'].includes(sub!));
    expect(used.map(([, sub]) => sub).sort()).toEqual(['listen', 'report']);
    for (const [, sub, rest] of used) {
      const help = spawnSync(process.execPath, [join(root, 'bin/payment-sandbox.js'), sub!, '--help'], { encoding: 'utf8' }).stdout;
      for (const flag of rest!.match(/--[a-z][a-z-]*/g) ?? []) expect(help, `${sub} ${flag}`).toContain(`${flag} `);
    }
  });

  it('docs/ci.md describes the file as it is, and names files that exist', () => {
    const guide = readFileSync(join(root, 'docs/ci.md'), 'utf8');
    const section = guide.slice(guide.indexOf('### GitHub Actions'), guide.indexOf('\n## ', guide.indexOf('### GitHub Actions')));
    expect(section).toContain('`services:`');
    expect(section).toContain('`sandbox-image`');
    expect(section).toContain('type=gha');
    expect(section).toContain('localhost:4010');
    expect(section).toContain('/_sandbox/health');
    expect(section).toContain('--require-coverage recommended');
    expect(section).toContain('listen');
    for (const [, path] of guide.matchAll(/\]\(\.\.\/([^)#]+)\)/g)) expect(existsSync(join(root, path!)), path).toBe(true);
  });
});
