/**
 * The README's walk-through ("Five minutes with it") cannot drift from the product: its
 * marked blocks are extracted from README.md and run as written, with bash, against a real
 * sandbox (the CLI, spawned on a free port with the flags of the `walkthrough:sandbox` block)
 * and the README's own webhook handler (the `handler:node` block, run with node).
 * The outputs are checked: ids captured into shell variables, each webhook verified by the
 * handler, the checkout page's redirect, the filtered request log. (The panel's handlers are
 * the README's, character for character: test/api/http/webhook-handlers.test.ts.)
 *
 * Markers: `<!-- walkthrough -->` before a ```sh block run in order in one shell;
 * `<!-- walkthrough:sandbox -->` the start command; `<!-- handler:node -->` the handler saved
 * as handler.mjs next to the script (the block test/e2e/handlers runs with the other languages).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
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
function watch(child: ChildProcess): { output: () => string; until: (test: (text: string) => boolean, what: string, timeoutMs?: number) => Promise<string> } {
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
const [handlerBlock] = markedBlocks('handler:node', 'js');

describe('README walk-through: its shape', () => {
  it('has the start command, the handler and the steps, marked', () => {
    expect(sandboxBlock).toMatch(/^npx payment-sandbox( --[\w-]+ \S+)*$/);
    expect(handlerBlock).toContain("createServer(");
    expect(walkthrough.length).toBeGreaterThanOrEqual(5);
  });

  it('runs on a machine with only Node and curl: no uuidgen, no <placeholders>, ids in shell variables', () => {
    const script = walkthrough.join('\n');
    expect(script).not.toMatch(/uuidgen|jq\b|python/);
    expect(script).not.toMatch(/<[a-z_-]+>/i);
    expect(script).toMatch(/^TX=\$\(curl /m);
    expect(script).toMatch(/^PAY_URL=\$\(curl /m);
    expect(script).toContain('${SANDBOX:-http://127.0.0.1:4010}');
  });

  it('starts the webhook handler before the first settle', () => {
    const handlerStep = walkthrough.findIndex((block) => /^PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key\.pem node handler\.mjs &$/m.test(block));
    const firstSettle = walkthrough.findIndex((block) => block.includes('/settle'));
    expect(handlerStep).toBeGreaterThanOrEqual(0);
    expect(firstSettle).toBeGreaterThan(handlerStep);
    expect(README.indexOf('<!-- handler:node -->')).toBeLessThan(README.indexOf('/settle'));
  });

  it('shows a handler that refuses a missing signature header before parsing', () => {
    expect(handlerBlock).toContain("typeof signature !== 'string' || !verified(raw, signature)");
  });
});

describe('README walk-through: run as written', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('creates, settles and refunds a card payment, pays a checkout payment on its page, and the handler verifies every webhook', { timeout: 180_000 }, async () => {
    const handlerPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'readme-walkthrough-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

    // The sandbox, started with the README's flags (the handler's port instead of 3000) on a free port.
    const flags = sandboxBlock!.replace(/^npx payment-sandbox\s*/, '').split(/\s+/).filter(Boolean).map((arg) => arg.replace('http://127.0.0.1:3000/', `http://127.0.0.1:${handlerPort}/`));
    const sandbox = spawn(process.execPath, [BIN, ...flags, '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => {
      sandbox.kill('SIGTERM');
    });
    const sandboxOut = watch(sandbox);
    const ready = await sandboxOut.until((text) => /payment-sandbox ready: url=(\S+) port=\d+/.test(text), 'the ready line');
    const url = /payment-sandbox ready: url=(\S+) port=\d+/.exec(ready)![1]!;

    // The walk-through in one shell, the handler next to it; its own process group, ended at the end.
    writeFileSync(join(dir, 'handler.mjs'), `${handlerBlock}\n`);
    writeFileSync(join(dir, 'walkthrough.sh'), `set -eo pipefail\n${walkthrough.join('\n')}\n`);
    const shell = spawn('bash', ['walkthrough.sh'], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SANDBOX: url, PORT: String(handlerPort), PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` },
    });
    cleanups.push(() => {
      try {
        process.kill(-shell.pid!, 'SIGTERM'); // bash and the handler it started
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
    const payUrl = /^open (\S+)$/m.exec(out)?.[1];
    expect(payUrl, out).toMatch(new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/pay/[0-9a-f-]{36}$`));
    expect(out).toMatch(/^303 http:\/\/127\.0\.0\.1:3000\/thanks$/m); // the payment page's redirect to return_url
    expect(out).toMatch(/^2$/m); // the filtered request log: the two payments created
    expect(out).not.toMatch(/undefined|error/i);

    // Every webhook reaches the README's handler and is verified there.
    const checkoutId = payUrl!.slice(payUrl!.lastIndexOf('/') + 1);
    const verified = await shellOut.until(
      (text) => text.includes(`webhook verified: SUCCEEDED ${tx} (order-1001)`) && /webhook verified: SUCCESS \S+ \(refund-1\)/.test(text) && text.includes(`webhook verified: SUCCEEDED ${checkoutId} (order-1002)`),
      'three verified webhooks',
    );
    expect(verified).toContain(`webhook handler on http://127.0.0.1:${handlerPort}/webhooks`);

    // The handler refuses what the sandbox did not sign, and a request without a signature.
    const handlerUrl = `http://127.0.0.1:${handlerPort}/webhooks`;
    expect((await fetch(handlerUrl, { method: 'POST', body: '{"ll_transaction_id":"forged"}' })).status).toBe(401);
    expect((await fetch(handlerUrl, { method: 'POST', headers: { signature: 'bm90IGEgc2lnbmF0dXJl' }, body: '{}' })).status).toBe(401);
    expect(shellOut.output()).not.toContain('forged');

    // The sandbox saw each delivery acknowledged.
    const deliveries = (await (await fetch(`${url}/_sandbox/deliveries?limit=100`)).json()) as { items: Array<{ state: string; resource_id: string }> };
    expect(deliveries.items.map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered']);
  });
});
