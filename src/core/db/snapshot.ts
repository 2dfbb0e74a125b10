/**
 * Snapshots of the whole state (contract: "Fixtures and snapshots (CI state)"):
 * `takeSnapshot` copies the live database with SQLite's online backup API (better-sqlite3's
 * `db.backup()`, a few pages per turn of the event loop, so the sandbox keeps serving; pages
 * written meanwhile through this same connection are carried into the copy, so it is
 * consistent as of the end of the backup). `readSnapshot` checks a file is one before a
 * sandbox starts from it (`--restore`): an SQLite database with the sandbox's tables, of a
 * schema version this sandbox knows (older ones are migrated on open).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION, type Db } from './database.js';

/** A file that is not a sandbox snapshot; the message is one line. */
export class SnapshotError extends Error {}

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Tables every snapshot has (schema version 1 on). */
const REQUIRED_TABLES = ['meta', 'accounts', 'transactions', 'refunds', 'idempotency_keys', 'request_log'];

/**
 * A consistent copy of `db` as the bytes of an SQLite file (rollback journal, not WAL, so it
 * opens anywhere: `sqlite3`, `new Database(bytes)`, `--restore`). `beforeCopy` runs first
 * (the request log writes its queue).
 */
export async function takeSnapshot(db: Db, beforeCopy: () => void = () => {}): Promise<Buffer> {
  beforeCopy();
  const file = join(tmpdir(), `payment-sandbox-snapshot-${process.pid}-${randomUUID()}.sqlite`);
  try {
    await db.backup(file);
    // A --db file is in WAL mode and the copy says so in its header: make it a plain file.
    const copy = new Database(file);
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    return readFileSync(file);
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
  }
}

/**
 * Reads and checks the snapshot at `path`: its bytes, ready for `openDatabase`.
 * @throws SnapshotError with one line naming the file and what is wrong.
 */
export function readSnapshot(path: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new SnapshotError(`cannot read the snapshot ${path} (${((err as Error).message ?? String(err)).split('\n')[0]})`);
  }
  const notOne = (why: string): SnapshotError => new SnapshotError(`${path} is not a payment-sandbox snapshot: ${why} (make one with GET /_sandbox/snapshot)`);
  if (bytes.length < 100 || !bytes.subarray(0, 16).equals(SQLITE_HEADER)) throw notOne('not an SQLite database file');
  // A copy of a WAL-mode file says so in its header (bytes 18 and 19 = 2); one opened from
  // memory cannot be in WAL mode: mark it as a rollback-journal file (its pages are whole).
  if (bytes[18] === 2 || bytes[19] === 2) {
    bytes = Buffer.from(bytes);
    bytes[18] = 1;
    bytes[19] = 1;
  }
  let db: Db | undefined;
  try {
    db = new Database(bytes);
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) throw notOne(`no ${missing.join(', ')} table${missing.length > 1 ? 's' : ''}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < 1) throw notOne('no schema version');
    if (version > SCHEMA_VERSION) throw new SnapshotError(`${path} was made by a newer payment-sandbox (schema version ${version}; this one knows up to ${SCHEMA_VERSION})`);
    const check = db.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw notOne(`the database is damaged (${check})`);
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    throw notOne(((err as Error).message ?? String(err)).split('\n')[0]!);
  } finally {
    db?.close();
  }
  return bytes;
}
