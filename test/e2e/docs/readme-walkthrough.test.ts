/**
 * The README's walk-through ("Five minutes with it") cannot drift from the product: its
 * marked blocks are extracted from README.md and run as written, with bash, against a real
 * sandbox (the CLI, spawned on a free port with the flags of the `walkthrough:sandbox` block).
 * The outputs are checked: the id captured into a shell variable, the webhook verified by the
 * walk-through's receiver, the delivery acknowledged, and a go-live report without findings.
 *
 * Markers: `<!-- walkthrough -->` before a ```sh block run in order in one shell;
 * `<!-- walkthrough:sandbox -->` the start command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/ports.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BIN = join(ROOT, 'bin', 'payment-sandbox.js');

/** The fenced blocks that follow `<!-- marker -->` (on the next non-empty line), in order. */
function markedBlocks(marker: string, lang: string): string[] {
  const blocks: string[] = [];
  const re = new RegExp(`<!-- ${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -->\\n+\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g');
  for (const match of README.matchAll(re)) blocks.push(match[1]!);
  return blocks;
}

/** Collects a child's stdout and stderr, and resolves `until(text)` once the output satisfies it. */
function watch(child: ChildProcess): {
  output: () => string;
  until: (test: (text: string) => boolean, what: string, timeoutMs?: number) => Promise<string>;
} {
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return {
    output: () => text,
    until: (test, what, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!test(text)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(text);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; output so far:\n${text}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}

const walkthrough = markedBlocks('walkthrough', 'sh');
const [sandboxBlock] = markedBlocks('walkthrough:sandbox', 'sh');

describe('README walk-through: its shape', () => {
  it('has the start command and the steps, marked', () => {
    expect(sandboxBlock).toMatch(/^npx payment-sandbox( --[\w-]+ \S+)*$/);
    expect(walkthrough.length).toBeGreaterThanOrEqual(4);
  });

  it('runs on a machine with only Node and curl: no uuidgen, no <placeholders>, ids in shell variables', () => {
    const script = walkthrough.join('\n');
    expect(script).not.toMatch(/uuidgen|jq\b|python/);
    expect(script).not.toMatch(/<[a-z_-]+>/i);
    expect(script).toMatch(/^TX=\$\(curl /m);
    expect(script).toContain('${SANDBOX:-http://127.0.0.1:4010}');
  });

  it('sends every create with an Idempotency-Key and starts the receiver before the first settle', () => {
    const script = walkthrough.join('\n');
    const creates = script.split(/(?=curl )/).filter((part) => /\/v4\/transactions["\s]/.test(part) && part.includes(' -d '));
    expect(creates.length).toBeGreaterThan(0);
    for (const create of creates) expect(create).toContain('Idempotency-Key:');
    const receiverStep = walkthrough.findIndex((block) => /^node receiver\.mjs &$/m.test(block));
    const firstSettle = walkthrough.findIndex((block) => block.includes('/settle'));
    expect(receiverStep).toBeGreaterThanOrEqual(0);
    expect(firstSettle).toBeGreaterThan(receiverStep);
  });
});

describe('README walk-through: run as written', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(
    'creates and settles a card payment, the receiver verifies its webhook, and the report has no finding',
    { timeout: 180_000 },
    async () => {
      const receiverPort = await freePort();
      const dir = mkdtempSync(join(tmpdir(), 'readme-walkthrough-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

      // The sandbox, started with the README's flags (the receiver's port instead of 3000) on a free port.
      const flags = sandboxBlock!
        .replace(/^npx payment-sandbox\s*/, '')
        .split(/\s+/)
        .filter(Boolean)
        .map((arg) => arg.replace('http://127.0.0.1:3000/', `http://127.0.0.1:${receiverPort}/`));
      const sandbox = spawn(process.execPath, [BIN, ...flags, '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      cleanups.push(() => {
        sandbox.kill('SIGTERM');
      });
      const sandboxOut = watch(sandbox);
      const ready = await sandboxOut.until((text) => /payment-sandbox ready: url=(\S+) port=\d+/.test(text), 'the ready line');
      const url = /payment-sandbox ready: url=(\S+) port=\d+/.exec(ready)![1]!;

      // The walk-through in one shell; its own process group (bash and the receiver), ended at the end.
      writeFileSync(join(dir, 'walkthrough.sh'), `set -eo pipefail\n${walkthrough.join('\n')}\n`);
      const shell = spawn('bash', ['walkthrough.sh'], {
        cwd: dir,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          SANDBOX: url,
          PORT: String(receiverPort),
          PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
        },
      });
      cleanups.push(() => {
        try {
          process.kill(-shell.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
      });
      const shellOut = watch(shell);
      const exitCode = await new Promise<number | null>((resolve) => shell.once('exit', resolve));
      expect(exitCode, shellOut.output()).toBe(0);

      const out = shellOut.output();
      const tx = /^created (\S+)$/m.exec(out)?.[1];
      expect(tx, out).toMatch(/^[0-9a-f-]{36}$/);
      expect(out).toMatch(/^SUCCEEDED$/m); // the settle
      expect(out).toContain(`webhook verified: SUCCEEDED ${tx} (order-1001)`);
      expect(out).toMatch(/^1$/m); // delivered at the first attempt
      expect(out).toMatch(/^0$/m); // the report's errors
      expect(out).not.toMatch(/undefined|error/i);

      // The receiver refuses what the sandbox did not sign.
      const receiverUrl = `http://127.0.0.1:${receiverPort}/webhooks`;
      expect((await fetch(receiverUrl, { method: 'POST', body: '{"ll_transaction_id":"forged"}' })).status).toBe(401);

      // The go-live report of the walk-through's traffic has no finding at all.
      const report = (await (await fetch(`${url}/_sandbox/report`)).json()) as { findings: Array<{ code: string }> };
      expect(report.findings.map((f) => f.code)).toEqual([]);
    },
  );
});
