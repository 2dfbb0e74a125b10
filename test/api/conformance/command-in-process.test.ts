/**
 * `payment-sandbox conformance` through the CLI's `main` in this process, against sandboxes on
 * loopback: the text report and exit 0 against a sandbox, the JSON report of a comparison of
 * two, and each refusal with exit 2 before anything is sent. JUnit and a drifting server, with
 * the built CLI as a process: e2e/conformance.
 */
import { describe, expect, it } from 'vitest';
import { CHECKOUT, DIRECT } from '../../support/app.js';
import { runMain } from '../../support/in-process-cli.js';
import { freePort } from '../../support/ports.js';
import { perTest } from '../../support/servers.js';

const per = perTest();
const creds = ['--api-key', DIRECT.api_key, '--account-id', DIRECT.account_id];
const checkout = ['--checkout-api-key', CHECKOUT.api_key, '--checkout-account-id', CHECKOUT.account_id];
const compare = (args: string[]) => args.map((a) => a.replace(/^--/, '--compare-'));

describe('conformance in process', () => {
  it('against a sandbox: every check passes, the text report says so, exit 0', async () => {
    const sandbox = await per.serve({ quiet: true });
    const r = await runMain(['conformance', '--url', `${sandbox.url}/v4`, ...creds, ...checkout]);
    expect(r.err).toBe('');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(new RegExp(`^payment-sandbox conformance against ${sandbox.url}/v4 \\(generated \\S+\\)\\n`));
    expect(r.out).toMatch(/^PASS {2}idempotency\.replay_same_body {2}\(.+\)$/m);
    expect(r.out).toMatch(/^SKIP {2}scopes\.restricted_key_reads {2}\(.+\)\n {6}skipped: no restricted key given/m);
    expect(r.out).toMatch(/\nconformance: passed \((\d+) of \d+ checks passed, 0 failed, \d+ skipped\)\n$/);
  });

  it('comparing two sandboxes: the JSON report names both and finds them alike, exit 0', async () => {
    const [a, b] = await Promise.all([per.serve({ quiet: true }), per.serve({ quiet: true })]);
    const r = await runMain([
      'conformance',
      '--url',
      `${a.url}/v4`,
      ...creds,
      '--compare-url',
      `${b.url}/v4`,
      ...compare(creds),
      ...checkout,
      ...compare(checkout),
      '--format',
      'json',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      url: `${a.url}/v4`,
      compare_url: `${b.url}/v4`,
      differences: [],
      summary: { failed: 0, differences: 0 },
    });
  });

  it('a server it cannot reach, and credentials it refuses, are exit 2', async () => {
    const closed = await freePort();
    const down = await runMain(['conformance', '--url', `http://127.0.0.1:${closed}/v4`, ...creds]);
    expect(down.code).toBe(2);
    expect(down.err).toMatch(/^payment-sandbox conformance: cannot reach the server: /);
    const sandbox = await per.serve({ quiet: true });
    const wrong = await runMain([
      'conformance',
      '--url',
      `${sandbox.url}/v4`,
      '--api-key',
      'sk_test_wrong',
      '--account-id',
      DIRECT.account_id,
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/^payment-sandbox conformance: .+/);
  });

  it.each([
    [[], '--url, --api-key and --account-id are required'],
    [['--url', 'http://127.0.0.1:9/api', ...creds], 'invalid --url "http://127.0.0.1:9/api": must be an http(s) base URL ending in /v4'],
    [['--url', 'http://127.0.0.1:9/v4', ...creds, '--checkout-api-key', 'k'], '--checkout-api-key and --checkout-account-id go together'],
    [
      ['--url', 'http://127.0.0.1:9/v4', ...creds, '--compare-restricted-api-key', 'k'],
      '--compare-checkout-api-key, --compare-checkout-account-id and --compare-restricted-api-key need --compare-url',
    ],
    [
      ['--url', 'http://127.0.0.1:9/v4', ...creds, '--compare-url', 'http://127.0.0.1:9/v4'],
      '--compare-url, --compare-api-key and --compare-account-id go together',
    ],
    [
      ['--url', 'http://127.0.0.1:9/v4', ...creds, '--compare-url', 'ftp://x/v4', ...compare(creds)],
      'invalid --compare-url "ftp://x/v4": must be an http(s) base URL ending in /v4',
    ],
    [
      [
        '--url',
        'http://127.0.0.1:9/v4',
        ...creds,
        '--compare-url',
        'http://127.0.0.1:9/v4',
        ...compare(creds),
        '--compare-checkout-account-id',
        'a',
      ],
      '--compare-checkout-api-key and --compare-checkout-account-id go together',
    ],
  ])('refuses %j with exit 2', async (args, message) => {
    const r = await runMain(['conformance', ...args]);
    expect(r).toEqual({ code: 2, out: '', err: `payment-sandbox conformance: ${message}\n` });
  });
});
