/**
 * The CI's caches on this machine, for work that does not change between runs: one folder per
 * kind under `$PAYMENT_SANDBOX_CI_CACHE`, else `${XDG_CACHE_HOME:-$HOME/.cache}/payment-sandbox-ci`,
 * and in it one entry per key, the hash of exactly what the entry depends on. An entry is
 * written in a folder of its own and renamed into place once complete, so a half-written entry
 * is never read, and a changed key never finds an old entry. Delete the folder to clear them.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The folder of every cache: `$PAYMENT_SANDBOX_CI_CACHE`, else `payment-sandbox-ci` in the user's cache folder. */
export function ciCacheRoot(): string {
  if (process.env.PAYMENT_SANDBOX_CI_CACHE) return process.env.PAYMENT_SANDBOX_CI_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'payment-sandbox-ci');
}

/** The key of an entry: a SHA-256 over the parts, each length-prefixed so no two lists of parts collide. */
export function cacheKey(parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    hash.update(`${bytes.length}:`).update(bytes);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * The entry `key` of the cache `kind`: its folder, made by `fill(folder)` when absent (`hit`
 * says whether it was there). `fill` writes into a fresh folder that becomes the entry only if
 * it returns; a concurrent writer of the same key wins the rename and ours is dropped.
 */
export function cacheEntry(kind: string, key: string, fill: (folder: string) => void): { folder: string; hit: boolean } {
  const dir = join(ciCacheRoot(), kind);
  const folder = join(dir, key);
  if (existsSync(folder)) return { folder, hit: true };
  mkdirSync(dir, { recursive: true });
  const partial = mkdtempSync(join(dir, `.partial-${key}-`));
  try {
    fill(partial);
    try {
      renameSync(partial, folder);
    } catch (error) {
      if (!existsSync(folder)) throw error;
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return { folder, hit: false };
}
