/**
 * `payment-sandbox conformance` as a process (the built CLI): exit 0 and a valid JUnit document
 * against a sandbox, 1 with the failing checks named against a drifting server, 2 for usage
 * and connection errors.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { junitProblems } from '../../support/junit-schema.js';
import { freePort } from '../../support/ports.js';
import { startDriftProxy, type DriftProxy } from '../conformance/drift-proxy.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, 'conformance', ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

let sandbox: RunningSandbox;
let drifting: RunningSandbox;
let proxy: DriftProxy;
beforeAll(async () => {
  [sandbox, drifting] = await Promise.all([startSandbox({ quiet: true }), startSandbox({ quiet: true })]);
  proxy = await startDriftProxy(drifting.url, ['error_code', 'status']);
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all([sandbox?.stop(), drifting?.stop()]);
});

const creds = (s: RunningSandbox): string[] => ['--api-key', s.credentials.direct.api_key, '--account-id', s.credentials.direct.account_id];

describe('payment-sandbox conformance (CLI)', () => {
  it('exits 0 against a sandbox and prints a JUnit document with one passing test case per check', async () => {
    const r = await run(['--url', sandbox.apiUrl, ...creds(sandbox), '--format', 'junit']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(junitProblems(r.out)).toEqual([]);
    expect(r.out).toContain('<testcase name="idempotency.replay_same_body" classname="conformance"');
    expect(r.out).toContain('failures="0"');
  });

  it('exits 1 against a drifting server, the JUnit failures naming the checks and pointers', async () => {
    const r = await run(['--url', proxy.apiUrl, ...creds(drifting), '--format', 'junit']);
    expect(r.code).toBe(1);
    expect(junitProblems(r.out)).toEqual([]);
    expect(r.out).toMatch(/<testcase name="transactions.method_not_allowed"[^>]*>\s*<failure message="\/status: /);
    expect(r.out).toMatch(/<testcase name="auth.missing_bearer"[^>]*>\s*<failure message="\/body\/code: /);
  });

  it('exits 2 for missing options, a base URL without /v4 and a server that cannot be reached', async () => {
    const missing = await run(['--url', sandbox.apiUrl]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--api-key');
    const noV4 = await run(['--url', sandbox.url, ...creds(sandbox)]);
    expect(noV4.code).toBe(2);
    expect(noV4.err).toContain('/v4');
    const unreachable = await run(['--url', `http://127.0.0.1:${await freePort()}/v4`, ...creds(sandbox)]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toContain('cannot reach the server');
    expect(unreachable.out).toBe('');
  });
});
