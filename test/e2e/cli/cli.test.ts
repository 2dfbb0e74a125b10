/**
 * The command line over a real socket: `bin/payment-sandbox.js` (the compiled CLI, built by
 * `npm test`'s pretest) starts, serves HTTP, stops cleanly on SIGTERM/SIGINT with code 0,
 * and refuses bad options with one line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openStore } from '../../../src/sqlite-store.js';
import { DIRECT, directPayment, headers } from '../../support/app.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  exit: Promise<number | null>;
}

function run(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcessWithoutNullStreams; exit: Promise<number | null>; out: () => string; err: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': the process can exit before its output has been read from the pipes.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exit, out: () => out, err: () => err };
}

async function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const r = run(['--port', '0', ...args], env);
  const deadline = Date.now() + 15_000;
  while (!/API\s+(http:\/\/\S+)\/v4/.test(r.out())) {
    if (Date.now() > deadline) throw new Error(`no banner: ${r.out()} ${r.err()}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  const url = /API\s+(http:\/\/\S+)\/v4/.exec(r.out())![1]!;
  return { child: r.child, url, output: r.out, exit: r.exit };
}

describe('payment-sandbox CLI', () => {
  it('starts with a banner (base URL, panel URL, demo credentials), serves /v4 over HTTP, and stops on SIGTERM with 0', async () => {
    const s = await start([]);
    expect(s.output()).toContain('Panel       http://127.0.0.1:');
    expect(s.output()).toContain(DIRECT.api_key);
    expect(s.output()).toContain(DIRECT.account_id);
    const created = await fetch(`${s.url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
    expect(created.status).toBe(201);
    const tx = (await created.json()) as { id: string };
    const got = await fetch(`${s.url}/v4/transactions/${tx.id}`, { headers: headers() });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { id: string }).id).toBe(tx.id);
    const health = await fetch(`${s.url}/_sandbox/health`);
    expect(health.status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
  });

  it('SIGINT finishes an in-flight request, then exits 0', async () => {
    const s = await start(['--latency', '400']);
    const inFlight = fetch(`${s.url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
    await new Promise((r) => setTimeout(r, 100));
    s.child.kill('SIGINT');
    expect((await inFlight).status).toBe(201);
    expect(await s.exit).toBe(0);
  });

  it('a --db file keeps data across restarts', async () => {
    const db = join(dir, 'sandbox.db');
    const a = await start(['--db', db]);
    const tx = (await (
      await fetch(`${a.url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) })
    ).json()) as { id: string };
    a.child.kill('SIGTERM');
    expect(await a.exit).toBe(0);
    const b = await start(['--db', db]);
    const got = await fetch(`${b.url}/v4/transactions/${tx.id}`, { headers: headers() });
    expect(got.status).toBe(200);
    b.child.kill('SIGTERM');
    expect(await b.exit).toBe(0);
  });

  it('a --db file or a snapshot whose clock is past 9999-12-31T23:59:59Z is refused at start, naming the file', async () => {
    // A year past the bound, as 800 ten-year advances once left it: stored offsets edited in the file.
    const beyondMs = Date.UTC(10043, 0, 1) - Date.now();
    const fileWith = (name: string, key: string, value: string): string => {
      const file = join(dir, name);
      openStore(file, () => undefined).close();
      const db = new Database(file);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
      db.close();
      return file;
    };
    const sandboxClock = fileWith('far-sandbox-clock.db', 'clock_offset_ms', String(beyondMs));
    const accountClock = fileWith('far-account-clock.db', 'account_clock_offsets', JSON.stringify({ [DIRECT.account_id]: beyondMs }));
    for (const args of [
      ['--db', sandboxClock],
      ['--db', accountClock],
      ['--restore', sandboxClock],
    ]) {
      const r = run(['--port', '0', ...args]);
      expect(await r.exit).toBe(1);
      expect(r.err()).toMatch(/^payment-sandbox: .*9999-12-31T23:59:59Z/);
      expect(r.err()).toContain(args[1]!);
      expect(r.err().trim().split('\n')).toHaveLength(1);
      expect(r.out()).not.toMatch(/API\s+http/);
    }
  });

  it('options come from PAYMENT_SANDBOX_* variables, and flags win', async () => {
    const s = await start([], { PAYMENT_SANDBOX_PORT: '1', PAYMENT_SANDBOX_WEBHOOK_TIMEZONE: 'Asia/Shanghai' });
    expect(s.output()).toContain('timezone Asia/Shanghai');
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
    const bad = run([], { PAYMENT_SANDBOX_PORT: 'abc' });
    expect(await bad.exit).toBe(1);
    expect(bad.err()).toBe('payment-sandbox: invalid PAYMENT_SANDBOX_PORT "abc" (the variable for --port): must be a number\n');
  });

  it('a bad value from a variable names the variable; the same value as a flag names the flag', async () => {
    const fromEnv = run([], { PAYMENT_SANDBOX_LOG_FORMAT: 'yaml' });
    expect(await fromEnv.exit).toBe(1);
    expect(fromEnv.err()).toMatch(
      /^payment-sandbox: invalid PAYMENT_SANDBOX_LOG_FORMAT "yaml" \(the variable for --log-format\): must be text or json\n$/,
    );
    const fromFlag = run(['--log-format', 'yaml'], { PAYMENT_SANDBOX_LOG_FORMAT: 'json' });
    expect(await fromFlag.exit).toBe(1);
    expect(fromFlag.err()).toMatch(/^payment-sandbox: invalid --log-format "yaml": must be text or json\n$/);
  });

  it('never echoes a webhook secret in an error', async () => {
    const r = run(['--webhook-secret', ''], { PAYMENT_SANDBOX_WEBHOOK_SECRET: 'hunter2' });
    await r.exit;
    const s = run([], { PAYMENT_SANDBOX_WEBHOOK_SIGNING: 'nope', PAYMENT_SANDBOX_WEBHOOK_SECRET: 'hunter2' });
    expect(await s.exit).toBe(1);
    expect(r.err() + s.err()).not.toContain('hunter2');
  });

  it('--version prints the version of package.json', async () => {
    const r = run(['--version']);
    expect(await r.exit).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(r.out()).toBe(`${pkg.version}\n`);
  });

  it('a mistyped option is refused with the right one suggested, on one line', async () => {
    const r = run(['--prot', '0']);
    expect(await r.exit).toBe(1);
    expect(r.err()).toBe("error: unknown option '--prot' (Did you mean --port?)\n");
  });

  it.each([
    [['--port', 'abc'], /^payment-sandbox: invalid --port "abc": must be a number\n$/],
    [['--port', '70000'], /invalid --port/],
    [['--db', '/proc/no-such-dir/x.db'], /^payment-sandbox: cannot open the database file \/proc\/no-such-dir\/x\.db \(.+\)\n$/],
    [['--webhook-timezone', 'Mars/Olympus'], /invalid --webhook-timezone/],
    [['--webhook-signing', 'hmac'], /--webhook-secret/],
    [['--no-such-flag'], /unknown option/],
  ])('refuses %j with one line and a non-zero exit', async (args, message) => {
    const r = run(args);
    const code = await r.exit;
    expect(code).not.toBe(0);
    expect(r.err()).toMatch(message);
    expect(r.err().trim().split('\n')).toHaveLength(1);
    expect(r.err()).not.toMatch(/\s+at\s/);
  });

  it('--help lists every option', async () => {
    const r = run(['--help']);
    expect(await r.exit).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--db',
      '--notification-url',
      '--seed',
      '--scenario',
      '--latency',
      '--webhook-timezone',
      '--webhook-signing',
      '--webhook-secret',
    ]) {
      expect(r.out()).toContain(flag);
    }
    expect(r.out()).toContain('PAYMENT_SANDBOX_PORT');
  });

  it('--key-pool and PAYMENT_SANDBOX_KEY_POOL set the key pool, shown in GET /_sandbox/health', async () => {
    const help = run(['--help']);
    expect(await help.exit).toBe(0);
    expect(help.out().replace(/\s+/g, ' ')).toContain(
      '--key-pool <n> account key pairs made ahead of time once listening (0: made per POST /_sandbox/accounts) (default: 4; env PAYMENT_SANDBOX_KEY_POOL)',
    );
    const fromEnv = await start([], { PAYMENT_SANDBOX_KEY_POOL: '2' });
    const fromFlag = await start(['--key-pool', '0'], { PAYMENT_SANDBOX_KEY_POOL: '2' });
    const pool = async (url: string) =>
      ((await (await fetch(`${url}/_sandbox/health`)).json()) as { key_pool: { size: number; ready: number } }).key_pool;
    expect((await pool(fromEnv.url)).size).toBe(2);
    expect(await pool(fromFlag.url)).toEqual({ size: 0, ready: 0 });
    for (const s of [fromEnv, fromFlag]) {
      s.child.kill('SIGTERM');
      expect(await s.exit).toBe(0);
    }
    const bad = run([], { PAYMENT_SANDBOX_KEY_POOL: '-1' });
    expect(await bad.exit).toBe(1);
    expect(bad.err()).toBe('payment-sandbox: invalid PAYMENT_SANDBOX_KEY_POOL "-1" (the variable for --key-pool): must be 0 or more\n');
  });

  it.skipIf(typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function')(
    "keeps the bundle's compiled code in a folder of the user's own, and starts from a damaged cache file too (Node 20)",
    async () => {
      const tmp = mkdtempSync(join(dir, 'tmp-'));
      const cacheDir = join(tmp, `payment-sandbox-compile-cache-${process.getuid!()}`);
      const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith('.bin')) : []);
      const a = await start([], { TMPDIR: tmp });
      while (cacheFiles().length === 0) await new Promise((r) => setTimeout(r, 50)); // written about 1 s after start
      a.child.kill('SIGTERM');
      expect(await a.exit).toBe(0);
      expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
      const file = join(cacheDir, cacheFiles()[0]!);
      writeFileSync(file, 'not V8 code');
      const b = await start([], { TMPDIR: tmp });
      expect((await fetch(`${b.url}/_sandbox/health`)).status).toBe(200);
      while (readFileSync(file, 'utf8') === 'not V8 code') await new Promise((r) => setTimeout(r, 50)); // rejected, then written again
      b.child.kill('SIGTERM');
      expect(await b.exit).toBe(0);
      const off = await start([], { TMPDIR: join(tmp, 'off'), NODE_DISABLE_COMPILE_CACHE: '1' });
      expect((await fetch(`${off.url}/_sandbox/health`)).status).toBe(200);
      off.child.kill('SIGTERM');
      expect(await off.exit).toBe(0);
      expect(existsSync(join(tmp, 'off'))).toBe(false);
    },
  );

  it("--help shows each option's default and two examples", async () => {
    const r = run(['--help']);
    expect(await r.exit).toBe(0);
    const help = r.out().replace(/\s+/g, ' ');
    for (const shown of [
      '--port <port> port to listen on (default: 4010;',
      '--host <host> address to listen on (default: 127.0.0.1;',
      '(default: text; env PAYMENT_SANDBOX_LOG_FORMAT)',
      '--quiet',
      '--port-file',
      '--log-format',
    ]) {
      expect(help).toContain(shown);
    }
    expect(r.out().match(/^\s+\$ payment-sandbox /gm)).toHaveLength(2);
  });
});

describe('stopping with the panel open', () => {
  it('ends open event streams and exits 0 at once', async () => {
    const s = await start([]);
    const controller = new AbortController();
    const res = await fetch(`${s.url}/_sandbox/events`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read(); // the `ready` event
    const stopped = Date.now();
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(1500);
    controller.abort();
  });
});
