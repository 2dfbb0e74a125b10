/**
 * Snapshots of the whole state:
 * `takeSnapshot` copies the live database with SQLite's online backup API (better-sqlite3's
 * `db.backup()`, a few pages per turn of the event loop, so the sandbox keeps serving; pages
 * written meanwhile through this same connection are carried into the copy, so it is
 * consistent as of the end of the backup), then written compact from that copy with `VACUUM
 * INTO` (no free pages; this step runs on the event loop, in time proportional to the data
 * kept). `readSnapshot` checks a file is one before a
 * sandbox starts from it (`--restore`): an SQLite database with the sandbox's tables, of a
 * schema version this sandbox knows (older ones are migrated on open).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, rmSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from './database.js';
import type { Schema } from './migrations.js';

/** A file that is not a sandbox snapshot; the message is one line. */
export class SnapshotError extends Error {}

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * The tables every snapshot of `schema` has: those its version 1 creates (the core's and each
 * feature's parts), `meta` first (it marks a sandbox's file), the others by name.
 */
function requiredTables(schema: Schema): string[] {
  const fresh = new Database(':memory:');
  try {
    fresh.exec(schema.versions[0] ?? '');
    const names = (
      fresh.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all() as {
        name: string;
      }[]
    )
      .map((r) => r.name)
      .sort();
    return [...names.filter((n) => n === 'meta'), ...names.filter((n) => n !== 'meta')];
  } finally {
    fresh.close();
  }
}

/**
 * A consistent copy of `db` as the bytes of an SQLite file (rollback journal, not WAL, so it
 * opens anywhere: `sqlite3`, `new Database(bytes)`, `--restore`). `beforeCopy` runs first
 * (the request log writes its queue).
 */
export async function takeSnapshot(db: Db, beforeCopy: () => void = () => {}): Promise<Buffer> {
  beforeCopy();
  const file = join(tmpdir(), `payment-sandbox-snapshot-${process.pid}-${randomUUID()}.sqlite`);
  const compact = `${file}.compact`;
  try {
    await db.backup(file);
    // The copy carries the live file's free pages (most of a file after deletes): it is
    // written again compact with VACUUM INTO, from the consistent copy, not the live database.
    const copy = new Database(file);
    try {
      copy.prepare('VACUUM INTO ?').run(compact);
    } finally {
      copy.close();
    }
    // A --db file is in WAL mode and the copy says so in its header: make it a plain file.
    const plain = new Database(compact);
    try {
      plain.pragma('journal_mode = DELETE');
    } finally {
      plain.close();
    }
    return readFileSync(compact);
  } finally {
    for (const f of [file, compact]) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(f + suffix, { force: true });
  }
}

/** The largest snapshot `--restore` reads (bytes): it is read whole into memory. */
export const MAX_SNAPSHOT_BYTES = 2 ** 30;

/** What a file that is not a regular one is, for the refusal. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The bytes of the regular file at `path`, at most MAX_SNAPSHOT_BYTES: a pipe (it would hang
 * the start), a device (`/dev/zero` never ends) or a larger file is refused before reading.
 * Opened without blocking, and checked on the open file, so what is read is what was checked.
 */
function readRegularFile(path: string, notOne: (why: string) => SnapshotError): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new SnapshotError(`cannot read the snapshot ${path} (${((err as Error).message ?? String(err)).split('\n')[0]})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notOne(`${kindOf(stat)}, not a regular file`);
    if (stat.size > MAX_SNAPSHOT_BYTES) throw notOne(`${stat.size} bytes, more than the ${MAX_SNAPSHOT_BYTES} a snapshot may have`);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError(`cannot read the snapshot ${path} (${((err as Error).message ?? String(err)).split('\n')[0]})`);
  } finally {
    closeSync(fd);
  }
}

/** One schema object as `sqlite_master` lists it. */
interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

const schemaOf = (db: Db): SchemaObject[] =>
  // SQLite's statistics (ANALYZE) are its own; everything else is compared
  db
    .prepare<[], SchemaObject>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'")
    .all();

/**
 * The first schema object of `db` the sandbox did not create at schema `version`: a trigger
 * (it would run on the sandbox's own writes), a view, a table or an index of its own, or one
 * of the sandbox's own changed. Compared with a fresh database migrated to the same version.
 */
function foreignObject(db: Db, schema: Schema, version: number): SchemaObject | undefined {
  const fresh = new Database(':memory:');
  try {
    for (const migration of schema.versions.slice(0, version)) fresh.exec(migration);
    for (const table of schema.created) fresh.exec(table);
    const known = new Set(schemaOf(fresh).map((o) => JSON.stringify([o.type, o.name, o.tbl_name, o.sql])));
    return schemaOf(db).find((o) => !known.has(JSON.stringify([o.type, o.name, o.tbl_name, o.sql])));
  } finally {
    fresh.close();
  }
}

/**
 * Reads and checks the snapshot at `path` against `schema`: its bytes, ready for `openDatabase`. `holds`, given
 * the opened copy, names what it holds that no sandbox may start from (a clock past the bound),
 * or null.
 * @throws SnapshotError with one line naming the file and what is wrong.
 */
export function readSnapshot(path: string, schema: Schema, holds: (db: Db) => string | null = () => null): Buffer {
  const notOne = (why: string): SnapshotError =>
    new SnapshotError(`${path} is not a payment-sandbox snapshot: ${why} (make one with GET /_sandbox/snapshot)`);
  let bytes = readRegularFile(path, notOne);
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
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
    const missing = requiredTables(schema).filter((t) => !tables.has(t));
    if (missing.length > 0) throw notOne(`no ${missing.join(', ')} table${missing.length > 1 ? 's' : ''}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < 1) throw notOne('no schema version');
    if (version > schema.versions.length)
      throw new SnapshotError(
        `${path} was made by a newer payment-sandbox (schema version ${version}; this one knows up to ${schema.versions.length})`,
      );
    const foreign = foreignObject(db, schema, version);
    if (foreign)
      throw notOne(`it holds ${foreign.type === 'index' ? 'an' : 'a'} ${foreign.type} ${foreign.name} that payment-sandbox did not create`);
    const check = db.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw notOne(`the database is damaged (${check})`);
    const refused = holds(db);
    if (refused !== null) throw new SnapshotError(`the snapshot ${path} holds ${refused}; start from another snapshot`);
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    throw notOne(((err as Error).message ?? String(err)).split('\n')[0]!);
  } finally {
    db?.close();
  }
  return bytes;
}
