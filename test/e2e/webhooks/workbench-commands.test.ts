/**
 * `payment-sandbox send-webhook` and `explain-signature`, run as a process (the built
 * `bin/payment-sandbox.js`) against a sandbox and a webhook receiver on real sockets: the
 * body sent arrives signed, byte for byte; a re-serialized body is explained as
 * `body_reserialized` (exit 1), the exact bytes as valid (exit 0).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, verifyWebhook, type RunningSandbox } from '../../../src/index.js';
import { ACK, DIRECT, startReceiver, type Receiver } from '../../support/app.js';
import { freePort } from '../../support/ports.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));

/** Runs the built CLI without blocking the event loop (the sandbox runs in this process). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, ...env } },
      (error, out, err) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, out, err }),
    );
    child.stdin!.end(stdin ?? '');
  });
}

let sandbox: RunningSandbox;
let receiver: Receiver;
let dir: string;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ ticker: false });
  dir = mkdtempSync(join(tmpdir(), 'workbench-cli-'));
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('payment-sandbox send-webhook and explain-signature', () => {
  it('sends a body signed to the receiver; explains its re-serialized body (exit 1) and its exact bytes (exit 0)', async () => {
    const text = '{"merchant_transaction_id":"cli-1","payment_status":"SUCCEEDED","amount":{"value":100}}';
    const sent = await cli([
      'send-webhook',
      '--account',
      DIRECT.account_id,
      '--url',
      receiver.url,
      '--body',
      text,
      '--sandbox-url',
      sandbox.url,
    ]);
    expect(sent.err).toBe('');
    expect(sent.code).toBe(0);
    const id = /^queued delivery (\S+)$/m.exec(sent.out)?.[1];
    expect(id, sent.out).toBeDefined();
    expect(sent.out).toContain(`url     ${receiver.url}`);
    expect(sent.out).toMatch(/state {3}(queued|retrying|delivered)/);

    const [hook] = await receiver.waitFor(1);
    expect(hook!.raw).toBe(text);
    const signature = String(hook!.headers.signature);
    expect(verifyWebhook({ body: hook!.raw, signature, publicKey: sandbox.credentials.webhookPublicKeyPem })).toBe(true);

    const reserialized = join(dir, 'reserialized.json');
    writeFileSync(reserialized, JSON.stringify(JSON.parse(hook!.raw), null, 2));
    const wrong = await cli(['explain-signature', '--body-file', reserialized, '--signature', signature], {
      PAYMENT_SANDBOX_PORT: new URL(sandbox.url).port,
    });
    expect(wrong.err).toBe('');
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/^invalid: body_reserialized$/m);
    expect(wrong.out).toContain(`delivery          ${id}`);
    expect(wrong.out).toMatch(/first difference {2}byte 1: /);
    expect(wrong.out).toMatch(/^ {2}fix {15}\S/m);

    const exact = await cli(
      ['explain-signature', '--signature', signature, '--json', '-'],
      { PAYMENT_SANDBOX_URL: sandbox.url },
      hook!.raw,
    );
    expect(exact.err).toBe('');
    expect(exact.code).toBe(0);
    expect(JSON.parse(exact.out)).toMatchObject({ valid: true, cause: 'valid', delivery_id: id });
    const plain = await cli(['explain-signature', '--signature', signature, '-'], { PAYMENT_SANDBOX_URL: sandbox.url }, hook!.raw);
    expect(plain.code).toBe(0);
    expect(plain.out.split('\n')[0]).toBe('valid: the signature matches these bytes');
  });

  it('prints the queued delivery as JSON with --json, and reads the body from a file', async () => {
    const file = join(dir, 'body.json');
    writeFileSync(file, '{"merchant_transaction_id":"cli-2"}\n');
    const sent = await cli(['send-webhook', '--account', DIRECT.account_id, '--url', receiver.url, '--file', file, '--json'], {
      PAYMENT_SANDBOX_URL: sandbox.url,
    });
    expect(sent.code).toBe(0);
    const delivery = JSON.parse(sent.out) as { id: string; url: string; body: string };
    expect(delivery.url).toBe(receiver.url);
    expect(delivery.body).toBe('{"merchant_transaction_id":"cli-2"}\n');
    const hook = await receiver.waitForMatch((h) => h.raw.includes('cli-2'));
    expect(hook.raw).toBe('{"merchant_transaction_id":"cli-2"}\n');
  });

  it('exits 1 with the error envelope when the sandbox refuses, 2 for usage errors or no sandbox', async () => {
    const env = { PAYMENT_SANDBOX_URL: sandbox.url };
    const refused = await cli(['send-webhook', '--account', 'no-such-account', '--url', receiver.url, '--body', '{}'], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^payment-sandbox send-webhook: refused \(404\): /);

    const badUrl = await cli(['send-webhook', '--account', DIRECT.account_id, '--url', 'ftp://x', '--body', '{}'], env);
    expect(badUrl.code).toBe(1);
    expect(badUrl.err).toContain('refused (400)');
    expect(badUrl.err).toMatch(/\n {2}body\/url: /);

    expect((await cli(['send-webhook', '--url', receiver.url, '--body', '{}'], env)).code).toBe(2);
    const twoBodies = await cli(['send-webhook', '--account', DIRECT.account_id, '--body', '{}', '--file', 'x.json'], env);
    expect(twoBodies.code).toBe(2);
    expect(twoBodies.err).toContain('give the body once');
    expect((await cli(['explain-signature', '--body', '{}'], env)).code).toBe(2);

    const closed = await freePort();
    const down = await cli(['send-webhook', '--account', DIRECT.account_id, '--body', '{}'], { PAYMENT_SANDBOX_PORT: String(closed) });
    expect(down.code).toBe(2);
    expect(down.err).toContain(`cannot reach the sandbox at http://127.0.0.1:${closed}`);
  });

  it('refuses /dev/zero, a file and stdin larger than the body limit with exit 2, sending nothing', async () => {
    const env = { PAYMENT_SANDBOX_URL: sandbox.url };
    const zero = await cli(['explain-signature', '--signature', 'c2ln', '--body-file', '/dev/zero'], env);
    expect(zero).toMatchObject({
      code: 2,
      err: 'payment-sandbox explain-signature: cannot read /dev/zero: not a regular file (a device, a pipe or a socket)\n',
    });
    const large = join(dir, 'large.json');
    writeFileSync(large, ' '.repeat(1024 * 1024 + 1));
    const sent = await cli(['send-webhook', '--account', DIRECT.account_id, '--url', receiver.url, '--file', large], env);
    expect(sent).toMatchObject({
      code: 2,
      err: expect.stringContaining(`cannot read ${large}: larger than the body limit (1048576 bytes)`),
    });
    const piped = await cli(['explain-signature', '--signature', 'c2ln', '-'], env, ' '.repeat(1024 * 1024 + 1));
    expect(piped).toMatchObject({ code: 2, err: expect.stringContaining('cannot read stdin: larger than the body limit (1048576 bytes)') });
  });
});

describe('payment-sandbox send-webhook --wait', () => {
  it("prints the handler's status and body: exit 0 when acknowledged, 1 when not; --timeout waits for the final state", async () => {
    const env = { PAYMENT_SANDBOX_URL: sandbox.url };
    const send = (extra: string[]) =>
      cli(['send-webhook', '--account', DIRECT.account_id, '--url', receiver.url, '--body', '{"wait":true}', '--wait', ...extra], env);
    const acknowledged = await send([]);
    expect(acknowledged.code, acknowledged.err).toBe(0);
    expect(acknowledged.out).toMatch(
      /^delivery [0-9a-f-]{36}: delivered\n {2}attempt 1 {2}acknowledged\n {2}status {2}200\n {2}body {4}\{"code":"200","message":"SUCCESS"\}\n$/,
    );

    receiver.respond = () => ({ status: 500, body: 'handler crashed' });
    try {
      const refused = await send([]);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('attempt 1  not acknowledged\n  status  500\n');
      expect(refused.out).toContain('  body    handler crashed\n');
      const retrying = await send(['--timeout', '1', '--json']);
      expect(retrying.code).toBe(1);
      expect(JSON.parse(retrying.out)).toMatchObject({ state: 'retrying', attempts: [{ response_status: 500, ok: false }] });
    } finally {
      receiver.respond = () => ACK;
    }
    expect((await cli(['send-webhook', '--account', DIRECT.account_id, '--body', '{}', '--timeout', '5'], env)).code).toBe(2);
  });
});
