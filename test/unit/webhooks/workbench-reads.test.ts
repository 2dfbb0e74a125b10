/**
 * The workbench commands' reads are bounded: a file given by path that is not a regular file
 * (`/dev/zero`, a directory) or is larger than the body limit is refused with exit 2 and a
 * message naming it, before any request is made (the sandbox URL here answers nothing).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '../../../src/core/config.js';
import { runExplainSignature, runSendWebhook } from '../../../src/features/webhooks/workbench-command.js';

const NOWHERE = ['--sandbox-url', 'http://127.0.0.1:9'];
let dir: string;
let large: string;
let small: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'workbench-reads-'));
  large = join(dir, 'large.json');
  writeFileSync(large, Buffer.alloc(DEFAULT_BODY_LIMIT + 1, 0x20));
  small = join(dir, 'small.json');
  writeFileSync(small, '{}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command; its exit code and what it printed on stderr. */
async function run(
  command: (argv: string[], env: NodeJS.ProcessEnv) => Promise<number>,
  argv: string[],
): Promise<{ code: number; err: string }> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await command([...argv, ...NOWHERE], {}), err: written.join('') };
  } finally {
    spy.mockRestore();
    out.mockRestore();
  }
}

describe('the workbench commands read only a regular file within the body limit', () => {
  it('explain-signature --body-file, send-webhook --file and --public-key-file refuse /dev/zero (exit 2)', async () => {
    const explain = await run(runExplainSignature, ['--signature', 'c2ln', '--body-file', '/dev/zero']);
    expect(explain).toEqual({ code: 2, err: expect.stringContaining('cannot read /dev/zero: not a regular file') });
    const send = await run(runSendWebhook, ['--account', 'acc_demo_direct', '--file', '/dev/zero']);
    expect(send).toEqual({ code: 2, err: expect.stringContaining('cannot read /dev/zero: not a regular file') });
    const key = await run(runExplainSignature, ['--signature', 'c2ln', '--body-file', small, '--public-key-file', '/dev/zero']);
    expect(key).toEqual({ code: 2, err: expect.stringContaining('cannot read /dev/zero: not a regular file') });
  });

  it('refuses a directory (exit 2)', async () => {
    const send = await run(runSendWebhook, ['--account', 'acc_demo_direct', '--file', dir]);
    expect(send).toEqual({ code: 2, err: expect.stringContaining(`cannot read ${dir}: it is a directory`) });
  });

  it('refuses a file larger than the body limit (exit 2), before calling the sandbox', async () => {
    const message = `cannot read ${large}: larger than the body limit (${DEFAULT_BODY_LIMIT} bytes)`;
    const explain = await run(runExplainSignature, ['--signature', 'c2ln', '--body-file', large]);
    expect(explain).toEqual({ code: 2, err: expect.stringContaining(message) });
    const send = await run(runSendWebhook, ['--account', 'acc_demo_direct', '--file', large]);
    expect(send).toEqual({ code: 2, err: expect.stringContaining(message) });
  });
});
