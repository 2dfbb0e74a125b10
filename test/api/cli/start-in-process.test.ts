/**
 * Starting the sandbox through the CLI's `main` in this process: the ready line, the port file,
 * the banner, a request line with `--log`, a clean stop on SIGTERM (the port file removed), and
 * a start that fails (bad options, a port in use, a port file it cannot write) with exit 1 and
 * the reason. The built CLI as a process: e2e/cli and e2e/terminal.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIRECT, headers } from '../../support/app.js';
import { runMain, startMain } from '../../support/in-process-cli.js';
import { perTest } from '../../support/servers.js';
import { until } from '../../support/until.js';

const per = perTest();
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('payment-sandbox started in process', () => {
  it('prints the ready line and the banner, writes the port file, logs requests with --log, and stops cleanly', async () => {
    const portFile = join(dir, 'port');
    const sandbox = await startMain(['--port', '0', '--port-file', portFile, '--log', '--notification-url', 'http://127.0.0.1:9/hooks']);
    const port = await until('the port file', () => (existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : undefined), 20_000);
    expect(port).toBeGreaterThan(0);
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/v4/transactions`, { headers: headers(DIRECT) })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { code, out } = await sandbox.stop();
    expect(code).toBe(0);
    expect(existsSync(portFile)).toBe(false);
    expect(out).toMatch(new RegExp(`^payment-sandbox ready: url=${url} port=${port}$`, 'm'));
    expect(out).toContain(`payment-sandbox is running\n  API         ${url}/v4\n`);
    expect(out).toContain('  Webhooks    http://127.0.0.1:9/hooks; signing ');
    expect(out).toMatch(new RegExp(`X-MERCHANT-ACCOUNT-ID: ${DIRECT.account_id}`));
    expect(out).toMatch(/GET \/v4\/transactions 200 [\d.]+ms/);
    expect(out).toMatch(/SIGTERM: stopping payment-sandbox/);
  });

  it('--log-format json prints the ready line as JSON and no banner', async () => {
    const sandbox = await startMain(['--port', '0', '--log-format', 'json']);
    const { code, out } = await sandbox.stop();
    expect(code).toBe(0);
    const ready = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.event === 'ready');
    expect(ready).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), port: expect.any(Number) });
    expect(out).not.toContain('payment-sandbox is running');
  });

  it('a port in use, a port file it cannot write, and an invalid option are exit 1 with the reason', async () => {
    const busy = await per.serve();
    const inUse = await runMain(['--port', String(busy.port), '--quiet']);
    expect(inUse.code).toBe(1);
    expect(inUse.err).toContain(`port ${busy.port} on 127.0.0.1 is already in use`);

    const unwritable = await runMain(['--port', '0', '--quiet', '--port-file', join(dir, 'missing', 'port')]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.err).toMatch(/cannot write --port-file .*missing\/port: /);

    const invalid = await runMain(['--port', '99999']);
    expect(invalid.code).toBe(1);
    expect(invalid.err).toMatch(/^payment-sandbox: invalid --port/);
    expect(invalid.out).toBe('');
  });
});
