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
import { startDriftProxy, type DriftProxy } from './drift-proxy.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, 'conformance', ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': the process can exit before its output has been read from the pipes.
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

let sandbox: RunningSandbox;
let drifting: RunningSandbox;
let proxy: DriftProxy;
/** A read-only restricted key of each sandbox's direct account, minted through the control API. */
const readOnlyKeys = new Map<RunningSandbox, string>();
beforeAll(async () => {
  [sandbox, drifting] = await Promise.all([startSandbox({ quiet: true }), startSandbox({ quiet: true })]);
  for (const s of [sandbox, drifting])
    readOnlyKeys.set(s, (await s.apiKeys.create(s.credentials.direct.account_id, { scopes: ['transactions.read'] })).secret);
  proxy = await startDriftProxy(drifting.url, ['error_code', 'status', 'checkout_no_payment_url']);
});
afterAll(async () => {
  await proxy?.close();
  await Promise.all([sandbox?.stop(), drifting?.stop()]);
});

const creds = (s: RunningSandbox): string[] => ['--api-key', s.credentials.direct.api_key, '--account-id', s.credentials.direct.account_id];
const compareCreds = (s: RunningSandbox): string[] => creds(s).map((a) => a.replace(/^--/, '--compare-'));
/** The checkout demo account and a read-only key, with `prefix` (`--` or `--compare-`). */
const moreCreds = (s: RunningSandbox, prefix = '--'): string[] => [
  `${prefix}checkout-api-key`,
  s.credentials.checkout.api_key,
  `${prefix}checkout-account-id`,
  s.credentials.checkout.account_id,
  `${prefix}restricted-api-key`,
  readOnlyKeys.get(s)!,
];

describe('payment-sandbox conformance (CLI)', () => {
  it('exits 0 against a sandbox and prints a valid JUnit document with one test case per check; without a checkout account and a restricted key, those checks are JUnit skipped cases with the reason', async () => {
    const r = await run(['--url', sandbox.apiUrl, ...creds(sandbox), '--format', 'junit']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(junitProblems(r.out)).toEqual([]);
    expect(r.out).toContain('<testcase name="idempotency.replay_same_body" classname="conformance"');
    expect(r.out).toContain('failures="0"');
    expect(r.out).toMatch(
      /<testcase name="checkout.read_back"[^>]*>\s*<skipped message="no checkout-mode account given \(--checkout-api-key/,
    );
    expect(r.out).toMatch(
      /<testcase name="scopes.restricted_key_reads"[^>]*>\s*<skipped message="no restricted key given \(--restricted-api-key/,
    );
    expect(r.out).toContain('skipped="10"');
  });

  it('with a checkout account and a restricted key, the checkout and scope checks run and pass', async () => {
    const r = await run(['--url', sandbox.apiUrl, ...creds(sandbox), ...moreCreds(sandbox), '--format', 'junit']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(junitProblems(r.out)).toEqual([]);
    expect(r.out).toMatch(/<testcase name="checkout.create" classname="conformance" time="[\d.]+"\/>/);
    expect(r.out).toMatch(/<testcase name="scopes.create_without_scope_forbidden" classname="conformance" time="[\d.]+"\/>/);
    expect(r.out).not.toContain('<skipped');
    expect(r.out).toContain('failures="0"');
  });

  it('--compare-url with checkout accounts: exit 1 naming the checkout drift, the check and the pointer', async () => {
    const args = ['--url', sandbox.apiUrl, ...creds(sandbox), ...moreCreds(sandbox)];
    const r = await run([...args, '--compare-url', proxy.apiUrl, ...compareCreds(drifting), ...moreCreds(drifting, '--compare-')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL  checkout.create');
    expect(r.out).toMatch(/ {2}checkout\.create {2}POST \/transactions {2}\/body\/payment_url: "string" vs "missing"/);
    expect(r.out).toMatch(/PASS {2}scopes\.create_without_scope_forbidden/);
  });

  it('exits 1 against a drifting server, the JUnit failures naming the checks and pointers', async () => {
    const r = await run(['--url', proxy.apiUrl, ...creds(drifting), '--format', 'junit']);
    expect(r.code).toBe(1);
    expect(junitProblems(r.out)).toEqual([]);
    expect(r.out).toMatch(/<testcase name="transactions.method_not_allowed"[^>]*>\s*<failure message="\/status: /);
    expect(r.out).toMatch(/<testcase name="auth.missing_bearer"[^>]*>\s*<failure message="\/body\/code: /);
  });

  it('--compare-url: a sandbox compared with itself on a fresh start exits 0', async () => {
    const fresh = await startSandbox({ quiet: true });
    try {
      const r = await run(['--url', fresh.apiUrl, ...creds(fresh), '--compare-url', fresh.apiUrl, ...compareCreds(fresh)]);
      expect(r.err).toBe('');
      expect(r.out).toContain('DIFFERENCES: none');
      expect(r.code).toBe(0);
    } finally {
      await fresh.stop();
    }
  });

  it('a key the server refuses on its first call stops the run with exit 2, naming --api-key or --compare-api-key', async () => {
    const account = sandbox.credentials.direct.account_id;
    const minted = await sandbox.apiKeys.create(account, {
      scopes: ['transactions.read', 'transactions.write', 'buyers.read', 'refunds.write'],
    });
    await sandbox.apiKeys.revoke(account, minted.id);
    const revoked = ['--api-key', minted.secret, '--account-id', account];
    const own = await run(['--url', sandbox.apiUrl, ...revoked]);
    expect(own.code).toBe(2);
    expect(own.err).toContain('refused the key given as --api-key: 401');
    expect(own.out).toBe('');
    const compared = await run([
      '--url',
      sandbox.apiUrl,
      ...creds(sandbox),
      '--compare-url',
      sandbox.apiUrl,
      ...revoked.map((a) => a.replace(/^--/, '--compare-')),
    ]);
    expect(compared.code).toBe(2);
    expect(compared.err).toContain('refused the key given as --compare-api-key: 401');
    expect(compared.out).toBe('');
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
    const halfCheckout = await run(['--url', sandbox.apiUrl, ...creds(sandbox), '--checkout-api-key', 'sk_test_x']);
    expect(halfCheckout.code).toBe(2);
    expect(halfCheckout.err).toContain('--checkout-api-key and --checkout-account-id go together');
    const compareOnly = await run(['--url', sandbox.apiUrl, ...creds(sandbox), '--compare-restricted-api-key', 'sk_test_x']);
    expect(compareOnly.code).toBe(2);
    expect(compareOnly.err).toContain('need --compare-url');
  });
});
