/**
 * The terminal as a developer keeps it open, over the real bin (`node bin/payment-sandbox.js`)
 * and a webhook receiver on loopback: one line per delivery attempt (failing and succeeding),
 * `--quiet` prints none, `--log-format json` prints JSON lines, `--log` prints request lines
 * without keys or card numbers, and the ready line / `--port-file` give the chosen port.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ACK, DIRECT, directPayment, headers, startReceiver, type Receiver } from '../../support/app.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-terminal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const READY = /^payment-sandbox ready: url=(http:\/\/\S+) port=(\d+)$/m;

interface Cli {
  child: ChildProcessWithoutNullStreams;
  url: string;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
  /** Resolves once stdout has a line matching `pattern`. */
  waitFor(pattern: RegExp): Promise<string>;
  stop(): Promise<number | null>;
}

const running: Cli[] = [];
afterEach(async () => {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null) await cli.stop();
});

/** Starts the bin on a free port and waits for its ready line (text or JSON). */
async function startCli(args: string[], env: Record<string, string> = {}): Promise<Cli> {
  const child = spawn(process.execPath, [BIN, '--port', '0', ...args], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': the process can exit before its output has been read from the pipes.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp): Promise<string> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const line = out.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) return line;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no line matching ${pattern}: ${out} ${err}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const first = await waitFor(/ready/);
  const url = args.includes('json') ? (JSON.parse(first) as { url: string }).url : READY.exec(first)![1]!;
  const cli: Cli = {
    child,
    url,
    out: () => out,
    err: () => err,
    exit,
    waitFor,
    stop: () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
  running.push(cli);
  return cli;
}

async function createPayment(cli: Cli, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${cli.url}/v4/transactions`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(directPayment(overrides)),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function settle(cli: Cli, id: string): Promise<void> {
  const res = await fetch(`${cli.url}/_sandbox/transactions/${id}/settle`, { method: 'POST' });
  expect(res.status).toBeLessThan(300);
}

describe('delivery lines', () => {
  let receiver: Receiver;
  afterEach(async () => receiver?.close());

  it('prints one line per attempt: a failing one with the next retry on the sandbox clock, then a succeeding one', async () => {
    receiver = await startReceiver();
    receiver.respond = (n) => (n === 1 ? { status: 500, body: 'boom' } : ACK);
    const cli = await startCli(['--notification-url', receiver.url]);
    const id = await createPayment(cli);
    await settle(cli, id);
    await receiver.waitFor(1);
    const failed = await cli.waitFor(/webhook payment .* 500 /);
    expect(failed).toContain(id);
    expect(failed).toContain(`-> ${receiver.url}`);
    expect(failed).toContain('(attempt 1)');
    expect(failed).toMatch(/next retry \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d) \(sandbox clock\)/);
    // The retry falls due once the sandbox clock moves past it.
    const advanced = await fetch(`${cli.url}/_sandbox/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 60 }),
    });
    expect(advanced.status).toBeLessThan(300);
    await receiver.waitFor(2);
    const delivered = await cli.waitFor(/webhook payment .* 200 delivered \(attempt 2\)/);
    expect(delivered).toContain(id);
    expect(delivered).not.toContain('next retry');
  });

  it('prints an unreachable target as an error', async () => {
    const cli = await startCli(['--notification-url', 'http://127.0.0.1:9/hook?token=s3cret']);
    const id = await createPayment(cli);
    await settle(cli, id);
    const line = await cli.waitFor(/webhook payment /);
    expect(line).toMatch(/ ERR .*\(attempt 1\); next retry /);
    expect(line).toContain('http://127.0.0.1:9/hook?token=***');
    expect(line).not.toContain('s3cret');
  });

  it('--quiet prints the ready line and no delivery line', async () => {
    receiver = await startReceiver();
    const cli = await startCli(['--quiet', '--notification-url', receiver.url]);
    await settle(cli, await createPayment(cli));
    await receiver.waitFor(1);
    // Stopping prints nothing either; once the process has exited all its output is in.
    expect(await cli.stop()).toBe(0);
    expect(cli.out().trim().split('\n')).toEqual([expect.stringMatching(READY)]);
    expect(cli.err()).toBe('');
  });

  it('--log-format json prints JSON lines, the delivery attempt among them', async () => {
    receiver = await startReceiver();
    const cli = await startCli(['--log-format', 'json', '--log', '--notification-url', receiver.url]);
    const id = await createPayment(cli);
    await settle(cli, id);
    await receiver.waitFor(1);
    await cli.waitFor(/"event":"delivery.attempted"/);
    expect(await cli.stop()).toBe(0);
    const records = cli
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ event: 'ready', level: 'info', url: cli.url, port: Number(new URL(cli.url).port) });
    expect(records.find((r) => r.event === 'delivery.attempted')).toMatchObject({
      kind: 'payment',
      resource_id: id,
      url: receiver.url,
      attempt: 1,
      ok: true,
      status: 200,
      next_attempt_at: null,
    });
    expect(records.find((r) => r.event === 'request')).toMatchObject({ method: 'POST', path: '/v4/transactions', status: 201 });
  });
});

describe('request lines', () => {
  it('--log prints one line per API request, without the key, the JWT or the card number', async () => {
    const cli = await startCli(['--log']);
    await createPayment(cli);
    const bad = await fetch(`${cli.url}/v4/transactions`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(
        directPayment({
          amount: 'x',
          payment_method: { type: 'card', number: '4000056655665556', expiration_date: '12/30', security_code: '987' },
        }),
      ),
    });
    expect(bad.status).toBe(400);
    await cli.waitFor(/^POST \/v4\/transactions 400 /);
    const lines = cli.out().split('\n');
    expect(lines.filter((l) => /^POST \/v4\/transactions 201 \d+\.\dms$/.test(l))).toHaveLength(1);
    const printed = cli.out().slice(cli.out().indexOf('Stop with Ctrl-C.'));
    for (const secret of [DIRECT.api_key, 'Bearer', '4111111111111111', '4000056655665556', 'security_code'])
      expect(printed).not.toContain(secret);
  });

  it('without --log no request line is printed', async () => {
    const cli = await startCli([]);
    await createPayment(cli);
    expect(await cli.stop()).toBe(0);
    expect(cli.out()).not.toMatch(/^POST \/v4/m);
  });
});

describe('the chosen port', () => {
  it('--port 0 prints a ready line first and --port-file holds the port while running', async () => {
    const portFile = join(dir, 'port');
    const cli = await startCli(['--port-file', portFile]);
    const [first] = cli.out().split('\n');
    const match = READY.exec(first!)!;
    expect(match).not.toBeNull();
    expect(readFileSync(portFile, 'utf8')).toBe(`${match[2]}\n`);
    expect((await fetch(`http://127.0.0.1:${match[2]}/_sandbox/health`)).status).toBe(200);
    expect(await cli.stop()).toBe(0);
    expect(existsSync(portFile)).toBe(false);
  });

  it('a --port-file that cannot be written stops the start with one line naming it', async () => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--port-file', join(dir, 'no-such-dir', 'port')]);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // 'close', not 'exit': the process can exit before its output has been read from the pipes.
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/^payment-sandbox: cannot write --port-file .*no-such-dir\/port: .+\n$/);
  });
});
