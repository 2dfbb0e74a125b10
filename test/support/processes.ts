/** Processes a test started, checked by pid: still running, or running in a folder (Linux: /proc). */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Whether a process `pid` still exists (a zombie counts as gone: it holds no port and runs nothing). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pids of processes whose working directory is `dir` (Linux: /proc). */
export function runningIn(dir: string): number[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir && alive(Number(pid));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** What a process that ran to its end left: its exit code, its output (stdout, then stderr as it came) and its pid. */
export interface FinishedProcess {
  code: number | null;
  out: string;
  pid: number;
}

/** Runs `cmd args` in `cwd` until it exits (killed after 50 s); stdout and stderr together. */
export function runToExit(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<FinishedProcess> {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, pid: child.pid! });
    }),
  );
}

const BIN = fileURLToPath(new URL('../../bin/payment-sandbox.js', import.meta.url));

/** Runs the built CLI's `report` (no `PAYMENT_SANDBOX_URL` but what `env` gives); its exit code, stdout and stderr. */
export function runReport(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'report', ...args], { env: { ...process.env, PAYMENT_SANDBOX_URL: '', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
