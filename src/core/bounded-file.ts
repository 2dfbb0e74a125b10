/**
 * Reading a file the user names, bounded: only a regular file (not a device such as
 * `/dev/zero`, a directory or a pipe) of at most `limit` bytes is read; stdin (`0`) is read up
 * to `limit` bytes. So no command reads without end or fills the memory with what it is given.
 */
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** A file refused by the bounds; `reason` is a short phrase (`it is a directory`), without the path. */
export class BoundedReadError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'BoundedReadError';
  }
}

/** Why `stat` is not a file to read, or undefined when it is one within `limit`. */
function refusal(stat: Stats, limit: number): string | undefined {
  if (stat.isDirectory()) return 'it is a directory';
  if (!stat.isFile()) return 'not a regular file (a device, a pipe or a socket)';
  if (stat.size > limit) return tooLarge(limit);
  return undefined;
}

const tooLarge = (limit: number): string => `larger than the body limit (${limit} bytes)`;

/** At most `limit + 1` bytes of `fd`: one more than allowed tells that there is more. */
function readUpTo(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= limit) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/**
 * The bytes of `path` (or of stdin, `0`).
 * @throws BoundedReadError when it is not a regular file or holds more than `limit` bytes;
 * the file system's own error when it cannot be read (no such file, no permission).
 */
export function readBoundedFile(path: string | 0, limit: number): Buffer {
  if (path === 0) {
    const bytes = readUpTo(0, limit);
    if (bytes.length > limit) throw new BoundedReadError(tooLarge(limit));
    return bytes;
  }
  // The path is looked at before it is opened: opening a named pipe would wait for a writer.
  const before = refusal(statSync(path), limit);
  if (before !== undefined) throw new BoundedReadError(before);
  const fd = openSync(path, 'r');
  try {
    const now = refusal(fstatSync(fd), limit);
    if (now !== undefined) throw new BoundedReadError(now);
    const bytes = readUpTo(fd, limit);
    if (bytes.length > limit) throw new BoundedReadError(tooLarge(limit));
    return bytes;
  } finally {
    closeSync(fd);
  }
}
