/**
 * `payment-sandbox report` (the built CLI, dist/) against a sandbox over a real socket: the
 * three formats, `--fail-on` and the exit codes (0 clean, 1 a finding at or above, 2 usage or
 * connection). The JUnit document is checked against the Ant/Jenkins JUnit schema's rules
 * (test/support/junit-schema.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Each run of the CLI is a process start: slow on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
import { FINDING_CODES } from '../../../src/features/go-live/go-live.js';
import type { GoLiveReport } from '../../../src/features/go-live/report.schemas.js';
import { startServer, type RunningServer } from '../../../src/server.js';
import { runReport } from '../../support/processes.js';
import { createAccount, type CreatedAccount } from '../../support/go-live-journeys.js';
import { directPayment } from '../../support/app.js';
import { junitProblems, parseXml } from '../../support/junit-schema.js';
import { freePort } from '../../support/ports.js';

/** A port nothing listens on. */
let server: RunningServer;
let careless: CreatedAccount;
let sloppy: CreatedAccount;
let clean: CreatedAccount;

beforeAll(async () => {
  server = await startServer({ port: 0, ticker: false });
  careless = await createAccount(server.url, 'direct', 'careless');
  sloppy = await createAccount(server.url, 'direct', 'sloppy');
  clean = await createAccount(server.url, 'direct', 'clean');
  // careless: an sk_live_ key (error) and a create without a key (warning); sloppy: the warning only.
  await fetch(`${server.url}/v4/transactions`, {
    headers: { authorization: 'Bearer sk_live_123', 'x-merchant-account-id': careless.account_id },
  });
  for (const account of [careless, sloppy]) {
    const res = await fetch(`${server.url}/v4/transactions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.api_key}`,
        'x-merchant-account-id': account.account_id,
        'content-type': 'application/json',
      },
      body: JSON.stringify(directPayment({ notification_url: 'http://127.0.0.1:9/hooks' })),
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => server.stop());

describe('payment-sandbox report', () => {
  it('text: findings by severity, then the coverage checklist; exit 1 on an error', async () => {
    const run = await runReport(['--sandbox-url', server.url]);
    expect(run.code).toBe(1);
    const out = run.out;
    expect(out).toContain(`payment-sandbox go-live report for ${server.url}`);
    expect(out).toContain('1 error, 2 warnings, 0 infos');
    expect(out.indexOf('ERRORS (1)')).toBeLessThan(out.indexOf('WARNINGS (2)'));
    expect(out).toMatch(/ERROR\s+live_key_used\s+\[account acc_/);
    expect(out).toContain('fix: Keep production keys out of test configuration');
    expect(out).toContain('docs: docs/go-live.md#live_key_used');
    expect(out).toMatch(/evidence: count 1; requests \d+/);
    expect(out).toContain(`COVERAGE [account ${careless.account_id}]: 0 of 13 scenarios seen`);
    expect(out).toMatch(/\[ \] payment_succeeded\s+how: /);
    expect(out.trimEnd().split('\n').at(-1)).toBe('go-live: FAILED (1 finding at or above --fail-on error)');
  });

  it('--fail-on: warning fails on a warning, never always passes, error passes on warnings only', async () => {
    expect((await runReport(['--sandbox-url', server.url, '--fail-on', 'never'])).code).toBe(0);
    expect((await runReport(['--sandbox-url', server.url, '--account', sloppy.account_id])).code).toBe(0);
    const warning = await runReport(['--sandbox-url', server.url, '--account', sloppy.account_id, '--fail-on', 'warning']);
    expect(warning.code).toBe(1);
    expect(warning.out).toContain('go-live: FAILED (1 finding at or above --fail-on warning)');
    const cleanRun = await runReport(['--sandbox-url', server.url, '--account', clean.account_id, '--fail-on', 'warning']);
    expect(cleanRun.code).toBe(0);
    expect(cleanRun.out).toContain('No findings.');
    // The URL can come from the environment.
    expect((await runReport(['--account', clean.account_id], { PAYMENT_SANDBOX_URL: server.url })).code).toBe(0);
  });

  it("json: the endpoint's document", async () => {
    const run = await runReport(['--sandbox-url', server.url, '--format', 'json', '--account', careless.account_id]);
    expect(run.code).toBe(1);
    const printed = JSON.parse(run.out) as GoLiveReport;
    const served = (await (await fetch(`${server.url}/_sandbox/report?account_id=${careless.account_id}`)).json()) as GoLiveReport;
    expect({ ...printed, generated_at: '' }).toEqual({ ...served, generated_at: '' });
    expect(printed.findings.map((f) => f.code)).toEqual(['live_key_used', 'missing_idempotency_key']);
  });

  it('junit: valid against the Ant/Jenkins JUnit schema, one test case per code, a failure where it has findings', async () => {
    const run = await runReport(['--sandbox-url', server.url, '--format', 'junit']);
    expect(run.code).toBe(1);
    expect(junitProblems(run.out)).toEqual([]);
    const root = parseXml(run.out);
    expect(root.name).toBe('testsuites');
    const suiteOf = (id: string) => root.children.find((s) => s.attributes.name === `go-live ${id}`)!;
    const suite = suiteOf(careless.account_id);
    expect(suite.children.filter((c) => c.name === 'testcase').map((c) => c.attributes.name)).toEqual([...FINDING_CODES]);
    const failed = suite.children.filter((c) => c.children.some((f) => f.name === 'failure'));
    expect(failed.map((c) => [c.attributes.name, c.children[0]!.attributes.type])).toEqual([
      ['missing_idempotency_key', 'warning'],
      ['live_key_used', 'error'],
    ]);
    expect(failed[1]!.children[0]!.text).toContain('fix: Keep production keys');
    expect(suite.attributes).toMatchObject({ tests: String(FINDING_CODES.length), failures: '2', errors: '0' });
    expect(suite.children.find((c) => c.name === 'system-out')!.text).toContain('[ ] payment_succeeded');
    expect(suiteOf(sloppy.account_id).attributes.failures).toBe('1');
  });

  it('the schema check itself refuses what the schema refuses', () => {
    const valid =
      '<testsuite name="a" timestamp="2026-01-01T00:00:00" hostname="h" tests="1" failures="0" errors="0" time="0"><properties/><testcase name="x" classname="c" time="0"/><system-out/><system-err/></testsuite>';
    expect(junitProblems(valid)).toEqual([]);
    expect(junitProblems(valid.replace('<properties/>', ''))).not.toEqual([]);
    expect(junitProblems(valid.replace('time="0"/>', 'time="0"><skipped/></testcase>'))).not.toEqual([]);
    expect(junitProblems(valid.replace('2026-01-01T00:00:00', '2026-01-01T00:00:00.000Z'))).not.toEqual([]);
    expect(junitProblems(valid.replace('tests="1"', 'tests="2"'))).not.toEqual([]);
    expect(junitProblems(valid.replace('<system-out/>', '<system-out>a < b</system-out>'))).not.toEqual([]);
  });

  it('exit 2 for a bad option, an unknown account or an unreachable sandbox', async () => {
    const badFormat = await runReport(['--sandbox-url', server.url, '--format', 'xml']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.err).toMatch(/xml/);
    expect((await runReport(['--sandbox-url', 'ftp://example.com'])).code).toBe(2);
    const unknown = await runReport(['--sandbox-url', server.url, '--account', 'acc_nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('404');
    const closed = await freePort();
    const down = await runReport(['--sandbox-url', `http://127.0.0.1:${closed}`]);
    expect(down.code).toBe(2);
    expect(down.err).toContain(`cannot reach the sandbox at http://127.0.0.1:${closed} (ECONNREFUSED)`);
  });
});
