/**
 * `payment-sandbox report` finds the sandbox as the image's healthcheck does: `--sandbox-url`, else
 * `PAYMENT_SANDBOX_URL`, else the port of `PAYMENT_SANDBOX_PORT` on loopback, else 4010.
 * `--url`, its old name, still works with a one-line notice on stderr. Run in-process against a
 * server on a real socket.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultOrigin, runReport } from '../../../src/features/go-live/report-command.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { freePort } from '../../support/ports.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false });
});
afterAll(() => server.stop());
afterEach(() => vi.restoreAllMocks());

/** Runs the report in-process; returns its exit code and what it wrote. */
async function report(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  const code = await runReport(args, env);
  vi.restoreAllMocks();
  return { code, out, err };
}

describe('payment-sandbox report without --sandbox-url', () => {
  it('reaches the sandbox on the port of PAYMENT_SANDBOX_PORT', async () => {
    const port = new URL(server.url).port;
    const run = await report(['--format', 'json', '--fail-on', 'never'], { PAYMENT_SANDBOX_PORT: port });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toBeTypeOf('object');
  });

  it('names the port it tried when nothing listens there', async () => {
    const closed = await freePort();
    const run = await report(['--fail-on', 'never'], { PAYMENT_SANDBOX_PORT: String(closed) });
    expect(run.code).toBe(2);
    expect(run.err).toContain(`127.0.0.1:${closed}`);
  });

  it('--sandbox-url wins over PAYMENT_SANDBOX_URL, which wins over PAYMENT_SANDBOX_PORT; 4010 last', async () => {
    const closed = await freePort();
    const run = await report(['--sandbox-url', server.url, '--format', 'json', '--fail-on', 'never'], {
      PAYMENT_SANDBOX_PORT: String(closed),
      PAYMENT_SANDBOX_URL: `http://127.0.0.1:${closed}`,
    });
    expect(run.code).toBe(0);
    expect(defaultOrigin({ PAYMENT_SANDBOX_URL: 'http://sandbox.test:9000', PAYMENT_SANDBOX_PORT: '5000' })).toBe(
      'http://sandbox.test:9000',
    );
    expect(defaultOrigin({ PAYMENT_SANDBOX_URL: '', PAYMENT_SANDBOX_PORT: '5000' })).toBe('http://127.0.0.1:5000');
    expect(defaultOrigin({})).toBe('http://127.0.0.1:4010');
  });

  it('takes --url, the deprecated name of --sandbox-url, with a one-line notice on stderr', async () => {
    const closed = await freePort();
    const run = await report(['--url', server.url, '--format', 'json', '--fail-on', 'never'], { PAYMENT_SANDBOX_PORT: String(closed) });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toBeTypeOf('object');
    expect(run.err).toBe('payment-sandbox report: --url is deprecated and will be removed; use --sandbox-url\n');
    const both = await report(['--url', server.url, '--sandbox-url', server.url], {});
    expect(both.code).toBe(2);
    const help = await report(['--help'], {});
    expect(help.out).toContain('--sandbox-url');
    expect(help.out).not.toContain('--url');
  });
});
