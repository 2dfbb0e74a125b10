/**
 * The CLI's `main` run in this process, its writes to stdout and stderr captured: for what the
 * command line says and answers (help, refusals, exit codes) without a fresh Node each time.
 * The built CLI as a process (the bundle, its streams) is checked in the e2e tier.
 */
import { vi } from 'vitest';
import { main } from '../../src/cli.js';

/** Runs `main(args, env)` in process; its exit code and what it wrote to stdout and stderr. */
export async function runMain(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  try {
    const code = await main(args, env);
    return { code, out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
