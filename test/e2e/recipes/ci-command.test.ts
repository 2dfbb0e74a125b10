/**
 * docs/ci.md "The command in a CI job", run exactly as written: its shell block, with bash, in a
 * merchant's project where the sandbox is installed (`node_modules`, and a real `npx` on the
 * PATH). The start waits for the port file, the health check answers, and the stop leaves no
 * process behind: the pid the recipe stopped is gone, and no process still runs in the project.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { merchantCheckout } from '../../support/checkout.js';
import { alive, runningIn } from '../../support/processes.js';
import { until } from '../../support/until.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The ```sh block under the heading "The command in a CI job". */
function recipe(): string {
  const guide = readFileSync(join(root, 'docs/ci.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## The command in a CI job'));
  const block = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error('docs/ci.md: no shell block under "The command in a CI job"');
  return block;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) {
    for (const pid of runningIn(dir)) process.kill(pid, 'SIGKILL'); // only what a failed run left in its own folder
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('docs/ci.md: the command in a CI job', () => {
  it('starts, answers its health check and stops, leaving no process behind', { timeout: 60_000 }, async () => {
    const dir = merchantCheckout();
    dirs.push(dir);
    const code = recipe();
    // As GitHub Actions runs a step; the line after the recipe only reports the pid it stopped.
    const script = `${code}\necho "recipe-sandbox-pid=$SANDBOX_PID"\n`;
    const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, npm_config_yes: 'false' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exit = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(exit, out).toBe(0);
    expect(out).toMatch(/sandbox at http:\/\/127\.0\.0\.1:\d+/);
    const pid = Number(/recipe-sandbox-pid=(\d+)/.exec(out)?.[1]);
    expect(pid).toBeGreaterThan(0);
    // SIGTERM finishes in-flight work first: give it a moment, then nothing may be left.
    await until('the stopped sandbox to exit', () => (alive(pid) || runningIn(dir).length > 0 ? undefined : true), 5_000).catch(
      () => undefined,
    );
    expect(alive(pid), `pid ${pid} still runs after the recipe's stop`).toBe(false);
    expect(runningIn(dir), 'processes still running in the project folder').toEqual([]);
  });
});
