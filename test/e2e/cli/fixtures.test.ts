/**
 * Fixtures and snapshots from the command line (the compiled CLI over a real socket):
 * `--fixtures FILE` (repeatable, and `PAYMENT_SANDBOX_FIXTURES`) seeds the sandbox before the
 * ready line; `--restore FILE` starts from a snapshot; a bad fixtures file or a file that is
 * not a snapshot stops the start with one line and exit code 1. Also the compose file's
 * fixtures mount and variable, run as the CLI would run them in the container.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { DIRECT, headers } from '../../support/app.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(root, 'bin/payment-sandbox.js');
const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-fixtures-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  exit: Promise<number | null>;
  out: () => string;
  err: () => string;
  stop: () => Promise<number | null>;
}

function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--quiet', ...args], { env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    exit,
    out: () => out,
    err: () => err,
    stop: () => {
      child.kill('SIGTERM');
      return exit;
    },
  };
}

/** Waits for the ready line; returns the base URL. */
async function ready(r: Run): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const m = /ready: url=(\S+)/.exec(r.out());
    if (m) return m[1]!;
    if (Date.now() > deadline) throw new Error(`no ready line: ${r.out()} ${r.err()}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

async function transactions(url: string): Promise<{ id: string; status: string; refunded_amount: number; external_identifier: string }[]> {
  const res = await fetch(`${url}/v4/transactions?limit=100`, { headers: headers(DIRECT) });
  return ((await res.json()) as { items: { id: string; status: string; refunded_amount: number; external_identifier: string }[] }).items;
}

describe('--fixtures and --restore', () => {
  it('--fixtures (repeatable) seeds the sandbox before the ready line; --restore starts another from its snapshot', async () => {
    const extra = join(dir, 'extra.json');
    writeFileSync(
      extra,
      JSON.stringify({
        fixtures: [{ name: 'late_refund', account: 'direct', create: 'refund', body: { transaction_id: '${order1.id}', amount: 200 } }],
      }),
    );
    const r = run(['--fixtures', join(root, 'fixtures/shop.json'), '--fixtures', extra]);
    try {
      const url = await ready(r);
      const txs = await transactions(url);
      expect(txs.find((t) => t.external_identifier === 'order-1001')).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 200 });
      expect(txs.find((t) => t.external_identifier === 'order-1002')).toMatchObject({ status: 'SUCCEEDED', refunded_amount: 500 });
      await fetch(`${url}/_sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 3600 }),
      });
      const snapshot = join(dir, 'cli.sqlite');
      writeFileSync(snapshot, Buffer.from(await (await fetch(`${url}/_sandbox/snapshot`)).arrayBuffer()));

      const restored = run(['--restore', snapshot]);
      try {
        const url2 = await ready(restored);
        expect((await transactions(url2)).map((t) => [t.id, t.status, t.refunded_amount])).toEqual(
          txs.map((t) => [t.id, t.status, t.refunded_amount]),
        );
        const clock = (await (await fetch(`${url2}/_sandbox/clock`)).json()) as { offset_seconds: number };
        expect(clock.offset_seconds).toBe(3600);
      } finally {
        expect(await restored.stop()).toBe(0);
      }
    } finally {
      expect(await r.stop()).toBe(0);
    }
  });

  it('PAYMENT_SANDBOX_FIXTURES lists fixture files (comma-separated)', async () => {
    const r = run([], { PAYMENT_SANDBOX_FIXTURES: `${join(root, 'fixtures/shop.json')},${join(root, 'fixtures/subscriptions.json')}` });
    try {
      const url = await ready(r);
      const subs = (await (await fetch(`${url}/v4/subscriptions`, { headers: headers(DIRECT) })).json()) as { items: { status: string }[] };
      expect(subs.items.map((s) => s.status).sort()).toEqual(['active', 'active', 'cancelled', 'failed', 'past_due']);
      expect((await transactions(url)).length).toBeGreaterThan(3);
    } finally {
      await r.stop();
    }
  });

  it('a bad fixtures file stops the start: one line naming the file, the fixture and the pointer, exit 1', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        fixtures: [
          { name: 'ok', account: 'direct', create: 'buyer', body: {} },
          { name: 'r', account: 'direct', create: 'refund', body: { transaction_id: '${nope.id}' } },
        ],
      }),
    );
    const r = run(['--fixtures', bad]);
    expect(await r.exit).toBe(1);
    const lines = r.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /bad\.json: fixture "r" at \/fixtures\/1\/body\/transaction_id: refers to nope, which no earlier fixture names/,
    );
    expect(r.out()).not.toMatch(/ready/);

    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{"fixtures": [');
    const r2 = run(['--fixtures', notJson]);
    expect(await r2.exit).toBe(1);
    expect(r2.err().trim().split('\n')).toHaveLength(1);
    expect(r2.err()).toMatch(/broken\.json: at \/: not JSON/);
  });

  it('a --restore file that is not a snapshot stops the start with one line, exit 1', async () => {
    const notes = join(dir, 'notes.sqlite');
    writeFileSync(notes, 'hello');
    const r = run(['--restore', notes]);
    expect(await r.exit).toBe(1);
    const lines = r.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/notes\.sqlite is not a payment-sandbox snapshot: not an SQLite database file/);
  });
});

describe('compose.yaml', () => {
  interface Service {
    command?: string[];
    environment?: Record<string, string>;
    volumes?: string[];
  }
  const service = (parse(readFileSync(join(root, 'compose.yaml'), 'utf8')) as { services: Record<string, Service> }).services[
    'payment-sandbox'
  ]!;

  it('mounts the fixtures folder and names a file in PAYMENT_SANDBOX_FIXTURES; the CLI started that way is seeded, once per --db file', async () => {
    const mount = service.volumes!.find((v) => /:\/fixtures(:ro)?$/.test(v))!;
    expect(mount).toBeDefined();
    const [hostDir] = mount.split(':');
    const inContainer = service.environment!.PAYMENT_SANDBOX_FIXTURES!;
    expect(inContainer).toMatch(/^\/fixtures\//);
    // The same command and variable, with the container's paths mapped to this checkout.
    const hostFile = join(root, hostDir!, inContainer.slice('/fixtures/'.length));
    const cmd = service.command!;
    const dbPath = join(dir, 'compose.sqlite');
    // Compose fills in `${NAME:-default}` from the environment first.
    const interpolated = (arg: string): string =>
      arg.replace(/\$\{(\w+):-([^}]*)\}/g, (_, name: string, fallback: string) => process.env[name] ?? fallback);
    const args = cmd
      .map(interpolated)
      .flatMap((arg, i) => (cmd[i - 1] === '--db' ? [dbPath] : [arg]))
      .filter((a, i, all) => a !== '--notification-url' && all[i - 1] !== '--notification-url');
    for (let round = 0; round < 2; round++) {
      const r = run(args, { PAYMENT_SANDBOX_FIXTURES: hostFile });
      try {
        const url = await ready(r);
        // Seeded on the first start; a restart with the same --db file does not seed it twice.
        expect((await transactions(url)).filter((t) => t.external_identifier === 'order-1001')).toHaveLength(1);
      } finally {
        expect(await r.stop()).toBe(0);
      }
    }
  });
});
