/**
 * `shadow`, `shadow report` and `fixtures from-recording` through the CLI's `main` in this
 * process, against a shadow proxy in front of a sandbox on loopback: the proxy's ready line and
 * its stop, the report as text, JSON and JUnit with its exit code, the recording's fixtures
 * document, and each refusal with exit 2. The proxy's comparisons over real sockets: e2e/shadow.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startShadow } from '../../../src/index.js';
import { DIRECT, directPayment, headers } from '../../support/app.js';
import { runMain, startMain } from '../../support/in-process-cli.js';
import { freePort } from '../../support/ports.js';
import { perTest } from '../../support/servers.js';

const per = perTest();
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-shadow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A proxy (recording to `record`) in front of a sandbox, and one payment created through it. */
async function shadowWithPayment(record: string) {
  const upstream = await per.serve({ quiet: true });
  const shadow = await startShadow({ upstream: `${upstream.url}/v4`, apiKey: DIRECT.api_key, accountId: DIRECT.account_id, record });
  per.defer(() => shadow.stop());
  const res = await fetch(`${shadow.url}/v4/transactions`, {
    method: 'POST',
    headers: headers(DIRECT, { 'idempotency-key': 'shadow-in-process' }),
    body: JSON.stringify(directPayment({ external_identifier: 'shadow-in-process' })),
  });
  expect(res.status).toBe(201);
  await shadow.report();
  return { upstream, shadow };
}

describe('shadow report in process', () => {
  it('prints the report as text, JSON and JUnit; exit 0 without differences', async () => {
    const { shadow, upstream } = await shadowWithPayment(join(dir, 'equal.jsonl'));
    const text = await runMain(['shadow', 'report', '--sandbox-url', shadow.url]);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(
      new RegExp(`^shadow of ${upstream.url}/v4: 1 of 1 exchanges compared, 0 webhooks compared\\n\\nshadow: no differences\\n$`),
    );
    const json = await runMain(['shadow', 'report', '--format', 'json'], { PAYMENT_SANDBOX_URL: shadow.url });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ summary: { exchanges: 1, compared: 1, differences: 0 }, differences: [] });
    const junit = await runMain(['shadow', 'report', '--format', 'junit', '--sandbox-url', shadow.url]);
    expect(junit.code).toBe(0);
    expect(junit.out).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites>\n {2}<testsuite name="shadow" [^>]* failures="0"/);
  });

  it('exit 1 with each difference listed when the upstream answers otherwise', async () => {
    const { shadow, upstream } = await shadowWithPayment(join(dir, 'drift.jsonl'));
    // a payment only the upstream holds: read through the proxy, the sandbox does not find it
    const direct = await fetch(`${upstream.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(DIRECT, { 'idempotency-key': 'upstream-only' }),
      body: JSON.stringify(directPayment({ external_identifier: 'upstream-only' })),
    });
    expect(direct.status).toBe(201);
    const { id } = (await direct.json()) as { id: string };
    expect((await fetch(`${shadow.url}/v4/transactions/${id}`, { headers: headers(DIRECT) })).status).toBe(200);
    const report = await shadow.report();
    expect(report.summary.differences).toBeGreaterThan(0);
    const text = await runMain(['shadow', 'report', '--sandbox-url', shadow.url]);
    expect(text.code).toBe(1);
    expect(text.out).toContain(`shadow: ${report.summary.differences} difference`);
    expect(text.out).toMatch(/GET \/v4\/transactions\/\{transaction_id\} {2}\/status: upstream 200, sandbox 404/);
    const junit = await runMain(['shadow', 'report', '--format', 'junit', '--sandbox-url', shadow.url]);
    expect(junit.code).toBe(1);
    expect(junit.out).toMatch(/<failure message="\d+ \w+ differences?: GET \/v4\/transactions/);
  });

  it('a sandbox that is not a shadow proxy, and an unreachable one, are exit 2', async () => {
    const sandbox = await per.serve();
    const notShadow = await runMain(['shadow', 'report', '--sandbox-url', sandbox.url]);
    expect(notShadow.code).toBe(2);
    expect(notShadow.err).toBe(`payment-sandbox shadow report: ${sandbox.url} is not a shadow proxy (GET /_sandbox/shadow answered 404)\n`);
    const closed = await freePort();
    const down = await runMain(['shadow', 'report', '--sandbox-url', `http://127.0.0.1:${closed}`]);
    expect(down.code).toBe(2);
    expect(down.err).toContain(`cannot reach the sandbox at http://127.0.0.1:${closed}`);
    expect((await runMain(['shadow', 'report', '--format', 'xml'])).code).toBe(2);
  });
});

/** `shadow` in front of `upstream`'s /v4 with the direct account's id, `apiKey` and any further flags. */
const shadowArgs = (upstream: { url: string }, apiKey: string, ...more: string[]): string[] => [
  'shadow',
  '--upstream',
  `${upstream.url}/v4`,
  '--api-key',
  apiKey,
  '--account-id',
  DIRECT.account_id,
  ...more,
];

describe('shadow in process', () => {
  it('starts the proxy, prints its ready line, and stops with 0 on SIGTERM', async () => {
    const upstream = await per.serve({ quiet: true });
    const shadow = await startMain(shadowArgs(upstream, DIRECT.api_key, '--port', '0'));
    const { code, out } = await shadow.stop();
    expect(code).toBe(0);
    expect(out).toMatch(/^payment-sandbox shadow ready: url=http:\/\/127\.0\.0\.1:\d+ port=\d+\n/);
    expect(out).toContain(`(upstream ${upstream.url}/v4)`);
    const url = /url=(\S+)/.exec(out)![1]!;
    await expect(fetch(`${url}/_sandbox/shadow`)).rejects.toThrow(); // stopped
  });

  it.each([
    [[], '--upstream, --api-key and --account-id are required'],
    [['--upstream', 'ftp://x/v4'], 'invalid --upstream "ftp://x/v4": must be an http(s) base URL ending in /v4'],
    [['--upstream', 'http://127.0.0.1:1/api'], 'invalid --upstream "http://127.0.0.1:1/api": must be an http(s) base URL ending in /v4'],
    [['--port', '70000'], 'invalid --port "70000": must be 0 to 65535'],
    [['--webhook-port', 'x'], 'invalid --webhook-port "x": must be 0 to 65535'],
    [['--forward-webhooks-to', 'http://127.0.0.1:1/hooks'], '--forward-webhooks-to takes an http(s) URL, with --webhook-port'],
  ])('refuses %j with exit 2 before starting', async (args, message) => {
    const base = ['--upstream', 'http://127.0.0.1:1/v4', '--api-key', 'k', '--account-id', 'a'];
    const r = await runMain(['shadow', ...(args.length === 0 ? [] : base), ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`payment-sandbox shadow: ${message}\n`);
  });

  it('an upstream that refuses the credentials, and a port in use, are exit 2 with the reason', async () => {
    const upstream = await per.serve({ quiet: true });
    const wrong = await runMain(shadowArgs(upstream, 'sk_test_wrong'));
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/^payment-sandbox shadow: .*refused the credentials \(401\)/);
    const busy = await runMain(shadowArgs(upstream, DIRECT.api_key, '--port', String(upstream.port)));
    expect(busy.code).toBe(2);
    expect(busy.err).toBe(`payment-sandbox shadow: port ${upstream.port} is already in use\n`);
  });
});

describe('fixtures from-recording in process', () => {
  it("prints, or writes, the fixtures document of a recording's payments", async () => {
    const record = join(dir, 'run.jsonl');
    const { shadow } = await shadowWithPayment(record);
    await shadow.stop();
    const printed = await runMain(['fixtures', 'from-recording', record]);
    expect(printed.code, printed.err).toBe(0);
    const document = JSON.parse(printed.out) as { fixtures: { amount?: number }[] };
    expect(document.fixtures).toHaveLength(1);
    const out = join(dir, 'fixtures.json');
    expect(await runMain(['fixtures', 'from-recording', record, '--out', out])).toEqual({ code: 0, out: '', err: '' });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(document);
  });

  it('refuses an unknown command, a missing file, a file that is not a recording and one without payments (exit 2)', async () => {
    const notRecording = join(dir, 'not.jsonl');
    writeFileSync(notRecording, 'hello\n');
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const cases: [string[], RegExp][] = [
      [['fixtures', 'convert'], /^payment-sandbox fixtures: unknown command 'convert' \(fixtures from-recording FILE \[--out FILE\]\)\n$/],
      [
        ['fixtures', 'from-recording', join(dir, 'missing.jsonl')],
        /^payment-sandbox fixtures from-recording: cannot read .*missing\.jsonl: /,
      ],
      [['fixtures', 'from-recording', notRecording], /^payment-sandbox fixtures from-recording: .*not\.jsonl: /],
      [
        ['fixtures', 'from-recording', empty],
        /^payment-sandbox fixtures from-recording: .*empty\.jsonl holds no payment the upstream created\n$/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runMain(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
    const help = await runMain(['fixtures', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: payment-sandbox fixtures from-recording/);
  });
});
