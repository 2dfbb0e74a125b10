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

/**
 * Runs `main(args, env)` in process for a command that runs until SIGINT or SIGTERM (the sandbox,
 * `shadow`, `listen`): resolves once it listens for them; `stop()` calls the SIGTERM listener it
 * added (no signal reaches the test process) and resolves with what `runMain` resolves with.
 */
export async function startMain(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 20_000,
): Promise<{ run: ReturnType<typeof runMain>; stop(): ReturnType<typeof runMain> }> {
  const terms = process.listeners('SIGTERM');
  const ints = process.listeners('SIGINT');
  const run = runMain(args, env);
  const deadline = Date.now() + timeoutMs;
  let onTerm: ((signal: NodeJS.Signals) => void) | undefined;
  let ended = false;
  void run.then(() => (ended = true));
  while (!(onTerm = process.listeners('SIGTERM').find((l) => !terms.includes(l)))) {
    if (ended) {
      const r = await run;
      throw new Error(`${args.join(' ')} ended with ${r.code} before it listened for signals: ${r.err}`);
    }
    if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not listen for signals within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const listener = onTerm;
  const onInt = process.listeners('SIGINT').find((l) => !ints.includes(l));
  return {
    run,
    stop() {
      process.off('SIGTERM', listener);
      if (onInt) process.off('SIGINT', onInt);
      listener('SIGTERM');
      return run;
    },
  };
}
