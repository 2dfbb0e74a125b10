/**
 * The webhook handlers in six languages, `examples/webhook-handlers/<LANG>/`, are proven as
 * shipped: each file is copied, byte for byte, to a temporary folder (with the public key
 * beside it) and started with the command of its first comment line (`Run: ...`, through bash
 * and the language's own toolchain), against a real sandbox in each signing mode.
 * The sandbox's check-webhooks battery (`POST /_sandbox/check-webhooks`) must pass every case,
 * and a real payment, created and settled through the API, must be delivered to the handler
 * and acknowledged (the delivery log says `delivered`; the handler printed it once).
 *
 * Toolchains: node, php (with OpenSSL), ruby, go, java (17+, single-file source launch) and a
 * python3 that has the `cryptography` package (`PYTHON`, `python3` or Debian's /usr/bin/python3,
 * the first that imports it). `.ci/run` installs them from Debian's packages. A missing one
 * fails the test when CI=true; elsewhere its tests are skipped, saying what is missing.
 *
 * The compiled languages are compiled once per content: `go run main.go` runs the binary `go
 * build` made of the same file, and `java Handler.java` the class `javac` made of it (the class
 * the source launcher would run: the file's first class), each kept in the CI cache
 * (test/support/ci-cache.ts) under the hash of the source and the toolchain's version. Both
 * signing modes, and later runs, use the same build; a changed file or toolchain builds anew.
 * The Run: line is still what bash runs: a `go` or `java` first on PATH takes those two
 * commands and hands every other to the real toolchain.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_CHECK_IDS } from '../../../src/features/check-webhooks/index.js';
import {
  HANDLER_LANGUAGES,
  handlerFiles,
  type HandlerLanguage,
  type WebhookHandlerExample,
} from '../../../src/features/webhooks/webhook-handler-files.js';
import { startSandbox, type RunningSandbox } from '../../../src/index.js';
import { cacheEntry, cacheKey } from '../../support/ci-cache.js';
import { freePort } from '../../support/ports.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const HANDLERS = handlerFiles((path) => readFileSync(join(ROOT, path), 'utf8'));
const SECRET = 'whsec_handlers_test';
const IN_CI = process.env.CI === 'true';

/** Runs `cmd args` and says whether it exited 0 (no shell). */
function works(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore', timeout: 60_000 });
  return r.status === 0;
}

/** The python3 that has `cryptography`: PYTHON, then python3 on PATH, then Debian's. */
function pythonWithCryptography(): string | null {
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => Boolean(c));
  return candidates.find((c) => works(c, ['-c', 'import cryptography'])) ?? null;
}

/** For each language: the programs to put first on PATH (name -> path), or why it cannot run. */
function toolchain(language: HandlerLanguage): { path: Record<string, string> } | { missing: string } {
  switch (language) {
    case 'node':
      return { path: { node: process.execPath } };
    case 'python': {
      const python = pythonWithCryptography();
      return python
        ? { path: { python3: python } }
        : { missing: 'no python3 with the cryptography package (Debian: python3-cryptography)' };
    }
    case 'php':
      return works('php', ['-r', 'exit(extension_loaded("openssl") ? 0 : 1);'])
        ? { path: {} }
        : { missing: 'no php with OpenSSL (Debian: php-cli)' };
    case 'ruby':
      return works('ruby', ['-e', 'require "openssl"; require "socket"; require "json"'])
        ? { path: {} }
        : { missing: 'no ruby (Debian: ruby)' };
    case 'go':
      return works('go', ['version']) ? { path: {} } : { missing: 'no go (Debian: golang-go)' };
    case 'java': {
      const r = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 60_000 });
      const major = Number(/version "(\d+)/.exec(r.stderr ?? '')?.[1] ?? 0);
      return r.status === 0 && major >= 17
        ? { path: {} }
        : { missing: `no java 17 or newer (Debian: default-jdk-headless)${major ? `; found ${major}` : ''}` };
    }
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A handler started with its `Run:` command in its folder; its output; stop() ends its process group. */
interface RunningHandler {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

const work = mkdtempSync(join(tmpdir(), 'webhook-handlers-'));
const shared = {
  GOCACHE: join(work, 'go-cache'),
  GOPATH: join(work, 'go-path'),
  GOPROXY: 'off',
  GOTOOLCHAIN: 'local',
  GOFLAGS: '',
  GO111MODULE: 'on',
};

/** The absolute path of the program `name` on PATH. */
function which(name: string): string {
  const r = spawnSync('bash', ['-c', `command -v ${name}`], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0 || !r.stdout.trim()) throw new Error(`no ${name} on PATH`);
  return r.stdout.trim();
}

/** What `cmd args` prints (stdout and stderr), to tell a toolchain's version. */
function printed(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

/** Runs `cmd args` in `cwd` with the shared Go settings, or throws with its output. */
function compile(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000, env: { ...process.env, ...shared } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
}

const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Writes the program `name` into the cache entry `folder`: for exactly `args` it runs `cached`
 * (a command line in which `$here` is the entry's folder, wherever it was moved and linked
 * from), for anything else the real toolchain program `real`.
 */
function wrapper(folder: string, name: string, args: string, cached: string, real: string): void {
  const path = join(folder, name);
  const script = [
    '#!/usr/bin/env bash',
    'here=$(dirname "$(readlink -f "$0")")',
    `if [ "$*" = ${quote(args)} ]; then exec ${cached}; fi`,
    `exec ${quote(real)} "$@"`,
    '',
  ];
  writeFileSync(path, script.join('\n'));
  chmodSync(path, 0o755);
}

/**
 * For Go and Java, the program to put first on PATH that runs the handler's build, made once per
 * hash of its source and the toolchain's version (the CI cache); nothing for the other languages.
 */
function compiled(handler: WebhookHandlerExample): Record<string, string> {
  if (handler.language === 'go') {
    const go = which('go');
    const key = cacheKey([handler.code, go, printed(go, ['version']), printed(go, ['env', 'GOOS', 'GOARCH'])]);
    const { folder } = cacheEntry('webhook-handlers', `go-${key}`, (entry) => {
      writeFileSync(join(entry, handler.file), handler.code);
      compile(go, ['build', '-o', 'handler', handler.file], entry);
      rmSync(join(entry, handler.file));
      wrapper(entry, 'go', `run ${handler.file}`, '"$here/handler"', go);
    });
    return { go: join(folder, 'go') };
  }
  if (handler.language === 'java') {
    const java = which('java');
    const javac = which('javac');
    // The source launcher runs the first class the file declares.
    const main = /^(?:public\s+)?(?:final\s+)?class\s+(\w+)/m.exec(handler.code)?.[1];
    if (!main) throw new Error(`${handler.file} declares no class`);
    const key = cacheKey([handler.code, java, javac, printed(java, ['-version']), printed(javac, ['-version'])]);
    const { folder } = cacheEntry('webhook-handlers', `java-${key}`, (entry) => {
      mkdirSync(join(entry, 'src'));
      writeFileSync(join(entry, 'src', handler.file), handler.code);
      compile(javac, ['-d', 'classes', join('src', handler.file)], entry);
      rmSync(join(entry, 'src'), { recursive: true });
      wrapper(entry, 'java', handler.file, `${quote(java)} -cp "$here/classes" ${main}`, java);
    });
    return { java: join(folder, 'java') };
  }
  return {};
}

/** Starts `handler` as its `Run:` line says, in a folder of its own, with the key file beside it. */
async function startHandler(
  handler: WebhookHandlerExample,
  path: Record<string, string>,
  pem: string,
  env: Record<string, string> = {},
): Promise<RunningHandler> {
  const dir = mkdtempSync(join(work, `${handler.language}-`));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  for (const [name, target] of Object.entries(path)) symlinkSync(target, join(bin, name));
  const tmp = join(dir, '.tmp');
  mkdirSync(tmp);
  writeFileSync(join(dir, handler.file), handler.code);
  writeFileSync(join(dir, 'webhook-public-key.pem'), pem);
  const port = await freePort();
  const child: ChildProcess = spawn('bash', ['-c', handler.run], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...shared, ...env, PORT: String(port), TMPDIR: tmp, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
  });
  let text = '';
  child.stdout?.on('data', (c: Buffer) => (text += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (text += c.toString('utf8')));
  let exited = false;
  child.once('exit', () => (exited = true));
  const stop = async (): Promise<void> => {
    if (exited) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid!, 'SIGTERM'); // the toolchain and what it started (go run's binary)
    } catch {
      return;
    }
    await gone;
  };
  const deadline = Date.now() + 120_000; // java and go compile first, on a small shared machine
  while (!(await accepts(port))) {
    if (exited) throw new Error(`${handler.language} handler exited before listening:\n${text}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${handler.language} handler did not listen on ${port} within 120 s:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url: `http://127.0.0.1:${port}/webhooks`, output: () => text, stop };
}

interface CheckReport {
  passed: boolean;
  checks: Array<{
    id: string;
    passed: boolean;
    reason: string;
    statePassed: boolean | null;
    state: Array<{ order: string; body: unknown }>;
  }>;
}

/** The battery through the control API; with `stateUrl`, the state check too. */
async function runBattery(sandbox: RunningSandbox, url: string, stateUrl?: string): Promise<CheckReport> {
  const res = await fetch(`${sandbox.url}/_sandbox/check-webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(stateUrl === undefined ? { url } : { url, state_url: stateUrl }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as CheckReport;
}

/** A card payment to `url`, settled by hand; resolves once its webhook is delivered (acknowledged). */
async function settleRealPayment(sandbox: RunningSandbox, url: string, reference: string): Promise<string> {
  const res = await fetch(`${sandbox.apiUrl}/transactions`, {
    method: 'POST',
    headers: { ...sandbox.credentials.direct.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: 1050,
      currency: 'USD',
      description: 'handler file test',
      external_identifier: reference,
      notification_url: url,
      payment_method: { type: 'card', number: '4111111111111111', expiration_date: '12/30', security_code: '123' },
      browser_info: { javascript_enabled: true, language: 'en-US', user_agent: 'vitest' },
    }),
  });
  expect(res.status).toBe(201);
  const tx = (await res.json()) as { id: string };
  await sandbox.settle(tx.id);
  const delivery = await sandbox.waitForDelivery((d) => d.resource_id === tx.id && d.status !== 'pending', 60_000);
  expect(delivery.status, JSON.stringify(delivery.attempts)).toBe('delivered');
  expect(delivery.attempts).toHaveLength(1);
  expect(delivery.url).toBe(url);
  return tx.id;
}

const modes = [
  { mode: 'rsa', options: {}, env: {} },
  { mode: 'hmac', options: { webhookSigning: 'hmac' as const, webhookSecret: SECRET }, env: { PAYMENT_SANDBOX_WEBHOOK_SECRET: SECRET } },
] as const;

describe('webhook handler files', () => {
  it('has one handler file per language, in order, each with a Run: line naming its file', () => {
    expect(HANDLERS.map((h) => h.language)).toEqual(Object.keys(HANDLER_LANGUAGES));
    expect(HANDLERS.map((h) => h.file)).toEqual(['handler.mjs', 'handler.py', 'handler.php', 'handler.rb', 'main.go', 'Handler.java']);
    for (const h of HANDLERS) {
      expect(h.run, h.language).toMatch(/^PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key\.pem /);
      expect(h.code, h.language).toContain('PAYMENT_SANDBOX_WEBHOOK_SECRET'); // the HMAC variant
      expect(h.code, h.language).toContain('/webhooks');
      expect(h.code.replaceAll('\\"', '"'), h.language).toContain('{"code":"200","message":"SUCCESS"}');
      expect(h.code, h.language).toContain('ll_transaction_id');
    }
  });
});

for (const { mode, options, env } of modes) {
  describe(`webhook handler files, ${mode} signing: run as their Run: line says, against a real sandbox`, () => {
    let sandbox: RunningSandbox;
    beforeAll(async () => {
      sandbox = await startSandbox({ ...options });
    });
    afterAll(async () => {
      await sandbox?.stop();
    });

    for (const language of Object.keys(HANDLER_LANGUAGES) as HandlerLanguage[]) {
      const tools = toolchain(language);
      const title = `${HANDLER_LANGUAGES[language]}: passes every check-webhooks case with the state check and acknowledges a settled payment's webhook`;
      if ('missing' in tools) {
        if (IN_CI) it(title, () => expect.fail(`${language}: ${tools.missing}; CI must install it (.ci/run)`));
        else it(title, (ctx) => ctx.skip(`${language}: ${tools.missing} (outside CI only; CI fails instead)`));
        continue;
      }
      it(title, { timeout: 300_000 }, async () => {
        const handler = HANDLERS.find((h) => h.language === language)!;
        const running = await startHandler(handler, { ...tools.path, ...compiled(handler) }, sandbox.credentials.webhookPublicKeyPem, env);
        try {
          // The handler answers GET /orders/<merchant_transaction_id> with what it applied.
          const report = await runBattery(sandbox, running.url, running.url.replace(/\/webhooks$/, '/orders'));
          expect(report.checks.map((c) => c.id)).toEqual([...WEBHOOK_CHECK_IDS]);
          expect(
            report.checks.filter((c) => !c.passed),
            running.output(),
          ).toEqual([]);
          expect(report.passed).toBe(true);
          for (const c of report.checks) expect([c.id, c.statePassed]).toEqual([c.id, c.id === 'time_limit' ? null : true]);
          // One transaction PROCESSING, then SUCCEEDED: both processed (each (transaction, status) pair once), the order paid.
          const intermediate = report.checks.find((c) => c.id === 'intermediate_status')!.state[0]!;
          expect(intermediate.body).toMatchObject({ payment_status: 'SUCCEEDED' });
          const transaction = new RegExp(`webhook verified: PROCESSING (\\S+) \\(${intermediate.order}\\)`).exec(running.output())?.[1];
          expect(running.output()).toContain(`webhook verified: SUCCEEDED ${transaction} (${intermediate.order})`);

          const reference = `handler-${language}-${mode}`;
          const id = await settleRealPayment(sandbox, running.url, reference);
          // The handler processed it once, and a resend (same body, fresh signature) is acknowledged without a second effect.
          const resent = await fetch(`${sandbox.url}/_sandbox/deliveries?limit=100`).then(
            (r) => r.json() as Promise<{ items: Array<{ id: string; resource_id: string }> }>,
          );
          const deliveryId = resent.items.find((d) => d.resource_id === id)!.id;
          expect((await fetch(`${sandbox.url}/_sandbox/deliveries/${deliveryId}/resend`, { method: 'POST' })).status).toBeLessThan(300);
          const again = await sandbox.waitForDelivery((d) => d.id === deliveryId && d.attempts.length === 2, 60_000);
          expect(again.attempts.map((a) => a.ok)).toEqual([true, true]);
          const out = running.output();
          expect(out.split(`webhook verified: SUCCEEDED ${id} (${reference})`)).toHaveLength(2);
          expect(out).toContain(`already handled: ${id}`);
        } finally {
          await running.stop();
        }
      });
    }
  });
}

describe('a handler that verifies re-serialized JSON fails the battery', () => {
  const python = pythonWithCryptography();
  const title = 'the Python handler changed to verify json.dumps(json.loads(raw)) fails raw_body, and only it';
  if (!python) {
    if (IN_CI) it(title, () => expect.fail('no python3 with the cryptography package'));
    else it(title, (ctx) => ctx.skip('no python3 with the cryptography package (outside CI only; CI fails instead)'));
    return;
  }
  it(title, { timeout: 120_000 }, async () => {
    const printed = HANDLERS.find((h) => h.language === 'python')!;
    const call = 'verified(raw, signature)';
    expect(printed.code.split(call)).toHaveLength(2);
    // Compact separators, so the sandbox's own (compact, ASCII) bodies come out byte for byte the same.
    const broken = {
      ...printed,
      code: printed.code.replace(call, 'verified(json.dumps(json.loads(raw), separators=(",", ":")).encode(), signature)'),
    };
    const sandbox = await startSandbox();
    const running = await startHandler(broken, { python3: python }, sandbox.credentials.webhookPublicKeyPem);
    try {
      const report = await runBattery(sandbox, running.url);
      expect(report.passed).toBe(false);
      expect(report.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(['raw_body']);
      expect(report.checks.find((c) => c.id === 'raw_body')!.reason).toContain('HTTP 401');
    } finally {
      await running.stop();
      await sandbox.stop();
    }
  });
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});
