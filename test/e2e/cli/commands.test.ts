/**
 * The CLI's subcommands as the built process answers them (`bin/payment-sandbox.js`, built by
 * `npm test`'s pretest): a command's help on stdout with exit 0, and a mistyped command refused
 * on stderr with exit 1. Every command's help and refusal is checked in process in
 * api/cli/subcommands.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../bin/payment-sandbox.js', import.meta.url));

function cli(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('payment-sandbox subcommands, as a process', () => {
  it("help report prints that command's help on stdout and exits 0", () => {
    const r = cli('help', 'report');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: payment-sandbox report /);
    expect(r.err).toBe('');
  });

  it('a mistyped command is refused on stderr, one line with the nearest command, exit 1', () => {
    const r = cli('reprot');
    expect(r.code).toBe(1);
    expect(r.err).toBe("error: unknown command 'reprot' (Did you mean report?)\n");
    expect(r.out).toBe('');
  });
});
