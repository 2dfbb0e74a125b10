/**
 * The sandbox process under unlucky conditions, with the real CLI
 * (`bin/payment-sandbox.js`, built by `npm test`'s pretest): one process per `--db` file,
 * a corrupted file refused, a closed stdout survived, and a compile cache that never runs
 * another bundle's code.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { directPayment, headers } from '../../support/app.js';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-robust-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcessWithoutNullStreams;
  exit: Promise<number | null>;
  out: () => string;
  err: () => string;
}

function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // 'close', not 'exit': the process can exit before its output has been read from the pipes.
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exit, out: () => out, err: () => err };
}

/** Starts the CLI on a free port and waits for its ready line; the URL. */
async function start(args: string[]): Promise<Run & { url: string }> {
  const r = run(['--port', '0', ...args]);
  const deadline = Date.now() + 15_000;
  while (!/ready: url=(\S+)/.test(r.out())) {
    if (Date.now() > deadline || r.child.exitCode !== null) throw new Error(`no ready line: ${r.out()} ${r.err()}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  return { ...r, url: /ready: url=(\S+)/.exec(r.out())![1]! };
}

async function createPayment(url: string): Promise<number> {
  const res = await fetch(`${url}/v4/transactions`, { method: 'POST', headers: headers(), body: JSON.stringify(directPayment()) });
  await res.arrayBuffer();
  return res.status;
}

describe('--restore of what is not a snapshot', () => {
  it('a named pipe or a snapshot carrying a trigger exits 1 with one line instead of hanging or running it', async () => {
    const fifo = join(dir, 'restore-pipe.sqlite');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const trigger = join(dir, 'restore-trigger.sqlite');
    const seed = await start([]);
    writeFileSync(trigger, Buffer.from(await (await fetch(`${seed.url}/_sandbox/snapshot`)).arrayBuffer()));
    seed.child.kill('SIGTERM');
    expect(await seed.exit).toBe(0);
    const db = new Database(trigger);
    db.exec("CREATE TRIGGER steal AFTER INSERT ON transactions BEGIN UPDATE meta SET value = 'stolen'; END");
    db.close();
    for (const [file, why] of [
      [fifo, /a named pipe, not a regular file/],
      [trigger, /holds a trigger steal that payment-sandbox did not create/],
    ] as const) {
      const r = run(['--port', '0', '--restore', file]);
      expect(await r.exit).toBe(1);
      const lines = r.err().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(why);
      expect(r.out()).not.toContain('ready');
    }
  });
});

describe('one process per --db file', () => {
  it('a symbolic link, a hard link and a --restore onto a link to a running sandbox database each exit 1 with one line; the live file is unchanged', async () => {
    const db = join(dir, 'linked.db');
    const first = await start(['--db', db]);
    expect(await createPayment(first.url)).toBe(201);
    const snapshot = join(dir, 'linked-snapshot.sqlite');
    writeFileSync(snapshot, Buffer.from(await (await fetch(`${first.url}/_sandbox/snapshot`)).arrayBuffer()));
    symlinkSync(db, join(dir, 'linked-sym.db'));
    linkSync(db, join(dir, 'linked-hard.db'));
    const live = readFileSync(db);
    for (const args of [
      ['--db', join(dir, 'linked-sym.db')],
      ['--db', join(dir, 'linked-hard.db')],
      ['--db', join(dir, 'linked-sym.db'), '--restore', snapshot],
    ]) {
      const second = run(['--port', '0', ...args]);
      expect(await second.exit).toBe(1);
      const lines = second.err().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/in use by another payment-sandbox process/);
      expect(second.out()).not.toContain('ready');
    }
    expect(readFileSync(db).equals(live)).toBe(true);
    expect(await createPayment(first.url)).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    // The lock is on the file, not a refusal of its names: once free, the hard link opens it.
    const byLink = await start(['--db', join(dir, 'linked-hard.db')]);
    const list = (await (await fetch(`${byLink.url}/v4/transactions`, { headers: headers() })).json()) as { items: unknown[] };
    expect(list.items.length).toBe(2);
    byLink.child.kill('SIGTERM');
    expect(await byLink.exit).toBe(0);
  });

  // A bind mount of the single file gives it a second path that no link reveals; a user and
  // mount namespace (unshare, no root needed where user namespaces are allowed) makes one.
  const bindMount = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'true']).status === 0;
  it.skipIf(!bindMount)(
    'a bind mount of the file of a running sandbox is refused at start (the lock is on its device and inode)',
    async () => {
      const db = join(dir, 'bound.db');
      const first = await start(['--db', db]);
      expect(await createPayment(first.url)).toBe(201);
      const mountPoint = join(dir, 'bound-elsewhere.db');
      writeFileSync(mountPoint, '');
      const script = `mount --bind "$1" "$2" && exec "$3" "$4" --port 0 --db "$2"`;
      const second = spawnSync(
        'unshare',
        ['--user', '--map-root-user', '--mount', 'sh', '-c', script, 'sh', db, mountPoint, process.execPath, BIN],
        {
          encoding: 'utf8',
          timeout: 20_000,
        },
      );
      expect(second.status).toBe(1);
      const lines = second.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/bound-elsewhere\.db .*in use by another payment-sandbox process/);
      expect(second.stdout).not.toContain('ready');
      expect(await createPayment(first.url)).toBe(201);
      first.child.kill('SIGTERM');
      expect(await first.exit).toBe(0);
    },
  );

  it('a second sandbox on the same --db exits 1 with one line naming the file; the first keeps serving', async () => {
    const db = join(dir, 'shared.db');
    const first = await start(['--db', db]);
    expect(await createPayment(first.url)).toBe(201);
    const second = run(['--port', '0', '--db', db]);
    expect(await second.exit).toBe(1);
    const lines = second.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(db);
    expect(lines[0]).toMatch(/in use by another payment-sandbox/);
    expect(second.out()).not.toContain('ready');
    expect(await createPayment(first.url)).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    // stopped cleanly: the file is free again
    const third = await start(['--db', db]);
    const list = (await (await fetch(`${third.url}/v4/transactions`, { headers: headers() })).json()) as { items: unknown[] };
    expect(list.items.length).toBe(2);
    third.child.kill('SIGTERM');
    expect(await third.exit).toBe(0);
  });

  it('a SIGKILLed sandbox does not block the next start on its --db', async () => {
    const db = join(dir, 'killed.db');
    const first = await start(['--db', db]);
    expect(await createPayment(first.url)).toBe(201);
    first.child.kill('SIGKILL');
    await first.exit;
    const next = await start(['--db', db]);
    const list = (await (await fetch(`${next.url}/v4/transactions`, { headers: headers() })).json()) as { items: unknown[] };
    expect(list.items.length).toBe(1);
    next.child.kill('SIGTERM');
    expect(await next.exit).toBe(0);
  });
});

describe('a corrupted --db file', () => {
  it('is refused at start with one line (PRAGMA quick_check), exit 1', async () => {
    const db = join(dir, 'corrupt.db');
    const s = await start(['--db', db]);
    for (let i = 0; i < 30; i++) expect(await createPayment(s.url)).toBe(201);
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
    // Overwrite the middle of a page past the schema (page 1): the header and schema still read.
    const bytes = readFileSync(db);
    const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
    const pages = Math.floor(bytes.length / pageSize);
    expect(pages).toBeGreaterThan(4);
    for (let page = 2; page < pages; page++) bytes.fill(0xa5, page * pageSize + 8, page * pageSize + 40);
    writeFileSync(db, bytes);
    const again = run(['--port', '0', '--db', db]);
    expect(await again.exit).toBe(1);
    const lines = again.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(db);
    expect(lines[0]).toMatch(/corrupt|malformed/);
  });
});

describe('a closed stdout', () => {
  it('`payment-sandbox | head -1`: once the reader is gone the sandbox still answers, logs and stops with 0', async () => {
    const s = await start(['--log']);
    s.child.stdout.destroy(); // the reader goes away, as `head -1` does after the ready line
    for (let i = 0; i < 20; i++) expect(await createPayment(s.url)).toBe(201); // each one a --log line: EPIPE
    const health = await fetch(`${s.url}/_sandbox/health`);
    expect(health.status).toBe(200);
    expect(s.child.exitCode).toBeNull();
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
  });

  it('a shell pipeline into head -1 leaves the sandbox running', async () => {
    const portFile = join(dir, 'pipe.port');
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" --port 0 --log --port-file "${portFile}" | head -1`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    shell.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 15_000;
    let port = 0;
    while (port === 0) {
      if (Date.now() > deadline) throw new Error(`no port file: ${out}`);
      await new Promise((res) => setTimeout(res, 50));
      try {
        port = Number(readFileSync(portFile, 'utf8').trim());
      } catch {
        // not yet
      }
    }
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 20; i++) expect(await createPayment(url)).toBe(201);
    expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
    expect(out).toMatch(/^payment-sandbox ready/);
    // stop it: the sandbox is the only node process of that shell
    const pids = spawnSync('pgrep', ['-P', String(shell.pid)], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
    for (const pid of pids) process.kill(pid, 'SIGTERM');
    await new Promise<void>((resolve) => shell.on('exit', () => resolve()));
  });
});

describe('the compile cache of bin/payment-sandbox.js', () => {
  it('two bundles of the same size and mtime each run their own code', () => {
    const root = join(dir, 'pkg');
    mkdirSync(join(root, 'bin'), { recursive: true });
    mkdirSync(join(root, 'dist', 'bundle'), { recursive: true });
    copyFileSync(BIN, join(root, 'bin', 'payment-sandbox.js'));
    writeFileSync(join(root, 'package.json'), '{"type":"module"}');
    const bundle = join(root, 'dist', 'bundle', 'cli.cjs');
    // main lives past the 1 s after which the cache is written
    const source = (word: string): string =>
      `exports.main = async () => { await new Promise((r) => setTimeout(r, 1300)); process.stdout.write('${word}\\n'); return 0; };\n`;
    const cacheDir = join(dir, 'tmp');
    mkdirSync(cacheDir, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: cacheDir };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const fixed = new Date('2020-01-01T00:00:00Z');
    const runBundle = (): string =>
      spawnSync(process.execPath, [join(root, 'bin', 'payment-sandbox.js')], { env, encoding: 'utf8' }).stdout.trim();
    writeFileSync(bundle, source('AAAA'));
    utimesSync(bundle, fixed, fixed);
    expect(runBundle()).toBe('AAAA');
    expect(runBundle()).toBe('AAAA'); // from the cache
    const size = statSync(bundle).size;
    writeFileSync(bundle, source('BBBB'));
    utimesSync(bundle, fixed, fixed);
    expect(statSync(bundle).size).toBe(size);
    expect(runBundle()).toBe('BBBB');
  });
});
