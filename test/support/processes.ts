/** Processes a test started, checked by pid: still running, or running in a folder (Linux: /proc). */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

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
