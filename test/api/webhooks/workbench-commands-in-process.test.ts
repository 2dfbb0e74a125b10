/**
 * `send-webhook` and `explain-signature` through the CLI's `main` in this process, against a
 * sandbox and a webhook receiver on loopback: what each prints as text and as JSON, what the
 * receiver got, `--wait` with and without `--timeout`, refusals and usage errors with their exit
 * codes. The built CLI as a process: e2e/webhooks/workbench-commands.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_PUBLIC_KEY_PEM } from '../../../src/core/credentials/demo-credentials.js';
import { DIRECT } from '../../support/app.js';
import { runMain } from '../../support/in-process-cli.js';
import { freePort } from '../../support/ports.js';
import { perTest } from '../../support/servers.js';

const per = perTest();
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-workbench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function setup() {
  const receiver = await per.receive();
  const sandbox = await per.serve();
  const cli = (...args: string[]) => runMain(args, { PAYMENT_SANDBOX_URL: sandbox.url });
  const send = (...args: string[]) => cli('send-webhook', '--account', DIRECT.account_id, '--url', receiver.url, ...args);
  return { receiver, sandbox, cli, send };
}

describe('send-webhook in process', () => {
  it('queues the body byte for byte, signed; prints the delivery as text or JSON', async () => {
    const { receiver, send } = await setup();
    const queued = await send('--body', '{"a": 1,  "b":[2]}');
    expect(queued.code, queued.err).toBe(0);
    expect(queued.out).toMatch(new RegExp(`^queued delivery [0-9a-f-]{36}\\n {2}url {5}${receiver.url}\\n {2}state {3}\\w+\\n$`));
    const hook = await receiver.waitFor(1);
    expect(hook[0]!.raw).toBe('{"a": 1,  "b":[2]}');
    expect(hook[0]!.verified).toBe(true);

    const file = join(dir, 'body.json');
    writeFileSync(file, '{"from":"file"}');
    const json = await send('--file', file, '--json');
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ merchant_account_id: DIRECT.account_id, url: receiver.url });
    expect((await receiver.waitFor(2))[1]!.raw).toBe('{"from":"file"}');
  });

  it('--wait prints the answer of the first attempt; with --timeout it waits for the final state', async () => {
    const { receiver, send } = await setup();
    const acknowledged = await send('--body', '{"wait":true}', '--wait');
    expect(acknowledged.code, acknowledged.err).toBe(0);
    expect(acknowledged.out).toMatch(
      /^delivery [0-9a-f-]{36}: delivered\n {2}attempt 1 {2}acknowledged\n {2}status {2}200\n {2}body {4}\{"code":"200","message":"SUCCESS"\}\n$/,
    );
    const final = await send('--body', '{"wait":true}', '--wait', '--timeout', '5');
    expect(final.code, final.err).toBe(0);
    expect(final.out).toMatch(/: delivered\n {2}attempt 1 {2}acknowledged\n/);

    receiver.respond = () => ({ status: 500, body: 'handler crashed' });
    const refused = await send('--body', '{}', '--wait');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('  attempt 1  not acknowledged\n  status  500\n');
    expect(refused.out).toContain('  body    handler crashed\n');
    const retrying = await send('--body', '{}', '--wait', '--timeout', '0.3');
    expect(retrying.code).toBe(1);
    expect(retrying.out).toMatch(
      /: retrying\n {2}not delivered or given up after 0\.3 s \(attempts so far: 1\)\n {2}attempt 1 {2}not acknowledged\n/,
    );
    const asJson = await send('--body', '{}', '--wait', '--json');
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.out)).toMatchObject({ attempts: [{ response_status: 500, ok: false }] });
  });

  it('a refusal prints the message and its details (exit 1), or the envelope with --json', async () => {
    const { cli, receiver } = await setup();
    const refused = await cli('send-webhook', '--account', 'no-such-account', '--url', receiver.url, '--body', '{}');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^payment-sandbox send-webhook: refused \(\d{3}\): .+/);
    const badUrl = await cli('send-webhook', '--account', DIRECT.account_id, '--url', 'ftp://x', '--body', '{}');
    expect(badUrl.code).toBe(1);
    expect(badUrl.err).toMatch(/refused \(400\): .+\n {2}\S*url\S*: .+/);
    const json = await cli('send-webhook', '--account', DIRECT.account_id, '--url', 'ftp://x', '--body', '{}', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ type: 'error', status: 400 });
  });

  it('usage errors are exit 2 before anything is sent', async () => {
    const { cli, receiver } = await setup();
    const cases: [string[], RegExp][] = [
      [['--body', '{}', '--timeout', '5'], /--timeout goes with --wait/],
      [['--body', '{}', '--wait', '--timeout', 'soon'], /invalid --timeout "soon": seconds, more than 0 and at most 86400/],
      [['--body', '{}', '--file', 'x.json'], /give the body once: --body <text>, --file <path> or - for stdin/],
      [['--body', '{}', 'extra'], /unexpected argument 'extra' \(only - reads the body from stdin\)/],
      [['--file', join(dir, 'missing.json')], /cannot read .*missing\.json: /],
    ];
    for (const [args, message] of cases) {
      const r = await cli('send-webhook', '--account', DIRECT.account_id, '--url', receiver.url, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
    expect(receiver.received).toEqual([]);
    expect((await cli('send-webhook', '--help')).code).toBe(0);
  });

  it('an unreachable sandbox, or an answer that is not JSON, is exit 2', async () => {
    const closed = await freePort();
    const down = await runMain(['send-webhook', '--account', DIRECT.account_id, '--body', '{}'], { PAYMENT_SANDBOX_PORT: String(closed) });
    expect(down.code).toBe(2);
    expect(down.err).toContain(`cannot reach the sandbox at http://127.0.0.1:${closed}`);
    const notASandbox = await per.receive();
    notASandbox.respond = () => ({ status: 502, body: 'bad gateway' });
    const garbled = await runMain(['send-webhook', '--account', DIRECT.account_id, '--body', '{}', '--sandbox-url', notASandbox.origin]);
    expect(garbled.code).toBe(2);
    expect(garbled.err).toBe(`payment-sandbox send-webhook: POST ${notASandbox.origin}/_sandbox/webhooks/send answered 502: bad gateway\n`);
  });
});

describe('explain-signature in process', () => {
  it('the exact bytes are valid (exit 0); a re-serialized body names the cause, the byte and the fix (exit 1)', async () => {
    const { send, receiver, cli } = await setup();
    expect((await send('--body', '{"order":"A-1","amount":100}')).code).toBe(0);
    const [hook] = await receiver.waitFor(1);
    const signature = String(hook!.headers.signature);
    const exact = join(dir, 'exact.bin');
    writeFileSync(exact, hook!.raw);
    const valid = await cli('explain-signature', '--signature', signature, '--body-file', exact);
    expect(valid.code, valid.err).toBe(0);
    expect(valid.out).toMatch(/^valid: the signature matches these bytes\n/);

    const wrong = await cli('explain-signature', '--signature', signature, '--body', JSON.stringify(JSON.parse(hook!.raw), null, 2));
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(
      /^invalid: body_reserialized\n {2}delivery {10}[0-9a-f-]{36}\n {2}first difference {2}byte \d+: sent .+, received .+\n {2}detail {12}.+\n {2}fix {15}.+\n$/,
    );

    const key = join(dir, 'key.pem');
    writeFileSync(key, DEMO_WEBHOOK_PUBLIC_KEY_PEM);
    const json = await cli('explain-signature', '--signature', signature, '--body-file', exact, '--public-key-file', key, '--json');
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ valid: true });
  });

  it('a refused request (an unknown delivery) is exit 2 with the message', async () => {
    const { cli } = await setup();
    const refused = await cli('explain-signature', '--signature', 'c2ln', '--body', '{}', '--delivery', 'no-such-delivery');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/^payment-sandbox explain-signature: refused \(\d{3}\): .+/);
    const noKey = await cli('explain-signature', '--signature', 'c2ln', '--body', '{}', '--public-key-file', join(dir, 'none.pem'));
    expect(noKey.code).toBe(2);
    expect(noKey.err).toMatch(/cannot read .*none\.pem/);
  });
});
