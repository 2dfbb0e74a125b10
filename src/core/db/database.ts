/**
 * Opens the SQLite database (in memory by default, a file with `--db`) and brings its schema
 * up to date. Each migration runs once, in order, tracked with `PRAGMA user_version`.
 * All times are stored as epoch milliseconds on the sandbox clock.
 */
import { readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Schema } from './migrations.js';

export type Db = Database.Database;

/**
 * The page cache (KiB) of the database used without `--db`: what it keeps in memory. SQLite
 * writes a temporary database's dirty pages to its file at the commit that finds a quarter of
 * the cache dirty, all at once, and a commit's own cost grows with the dirty pages its cache
 * holds: the median COMMIT of a create was 10 to 15 us with 8 MB and 2 to 3 us with 1 MB, and a
 * create's whole storage cost 0.84 of the 8 MB figure (32 MB: 2.72). With 32 MB a flush was an
 * 8 MB write inside one commit (a request behind a clock advance's slice waited about 70 ms);
 * with 1 MB each flush is 256 KB. The pages written out stay in the OS's file cache, and reads
 * of a known transaction come from the read cache (`read-cache.ts`) before SQLite.
 */
export const TEMP_CACHE_KIB = 1024;

/**
 * What `:memory:` (no `--db`) opens: SQLite's private temporary database (`''`), which keeps
 * at most its page cache in memory, where a folder for its file can be written; else a true
 * in-memory database. Data lives as long as the process either way.
 */
function anonymousPath(): string {
  const dirs = [process.env.SQLITE_TMPDIR, process.env.TMPDIR, '/var/tmp', '/usr/tmp', '/tmp', tmpdir()];
  for (const dir of dirs) {
    if (!dir) continue;
    try {
      accessSync(dir, constants.W_OK | constants.X_OK);
      return '';
    } catch {
      // not writable: the next one
    }
  }
  return ':memory:';
}

/** The database file cannot be opened or written; the message is one line. */
export class DatabaseOpenError extends Error {}

/**
 * Opens the database at `path` (`:memory:` for an in-memory one) and migrates it to `schema`
 * (each version it does not hold yet, in order); with `restore` (a snapshot's bytes), starts from that copy.
 * Throws with a one-line message when the file cannot be opened or written.
 */
export function openDatabase(path: string, schema: Schema, restore?: Buffer): Db {
  let db: Db | undefined;
  let lock: Db | undefined;
  try {
    // The lock first, on the file itself (a link to it is the same file): a second process
    // must not touch it (nor restore over it).
    const file = path === ':memory:' ? path : realFile(path);
    if (file !== ':memory:') lock = takeLock(path, file);
    // `--restore`: the snapshot's bytes (checked by snapshot.ts) become the database,
    // in memory or as the --db file (replacing it, and its write-ahead log).
    if (restore && file !== ':memory:') {
      for (const suffix of ['-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
      writeFileSync(file, restore);
    }
    db = restore && file === ':memory:' ? new Database(restore) : new Database(file === ':memory:' ? anonymousPath() : file);
    if (lock) {
      holdLock(db, lock);
      db.pragma('journal_mode = WAL');
      quickCheck(db, path);
    } else if (db.name === '') {
      // SQLite's private temporary database: its pages live in the page cache (at most
      // TEMP_CACHE_KIB) and spill to an anonymous file (unlinked at once, gone with the process)
      // beyond it, so the process's memory stays flat however much is created. Its rollback
      // journal stays in memory: the file dies with the process, nothing to recover.
      db.pragma(`cache_size = -${TEMP_CACHE_KIB}`);
      db.pragma('journal_mode = MEMORY');
    }
  } catch (err) {
    if (db?.open)
      db.close(); // and its lock
    else if (lock?.open) lock.close();
    if (err instanceof DatabaseOpenError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new DatabaseOpenError(`cannot open the database file ${path} (${reason.split('\n')[0]})`);
  }
  db.pragma('foreign_keys = ON');
  // Deleted rows (card data, keys, a reset) are overwritten with zeros, not left in free pages.
  db.pragma('secure_delete = ON');
  // Durability. A --db file is in WAL mode with synchronous = NORMAL: a commit is in the
  // write-ahead log (the OS's cache) when the request is answered, so whatever the sandbox
  // accepted survives a crash or kill of the process; only a power loss or OS crash can drop
  // the last commits (the file stays consistent). FULL would add an fsync to every create.
  // In memory, the journal is SQLite's in-memory one (rollbacks and savepoints need it) and
  // synchronous does nothing.
  db.pragma('synchronous = NORMAL');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let i = version; i < schema.versions.length; i++) {
    db.transaction(() => {
      db.exec(schema.versions[i]!);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
  return db;
}

/**
 * One process per `--db` file, and no start on a damaged one. Two sandboxes on one file
 * delivered webhooks twice, ran diverging clocks and released each other's in-flight
 * idempotency keys. So the file itself is asked first (`refuseIfFileHeld`: the operating
 * system's lock on its device and inode, which a hard link or a bind mount shares), and a lock
 * file beside the real file (`<db>.lock` after following symbolic links, so a link to the file
 * finds the same lock; a tiny SQLite file; it also covers a file not created yet) is opened in
 * `locking_mode = EXCLUSIVE` and written once: SQLite then holds its exclusive lock until the
 * connection closes (with the database). The lock is the operating system's: a process that
 * is killed (SIGKILL, a crash) drops it with its file descriptors, so nothing stale is ever
 * left to block a start, and the database itself stays readable by other tools (sqlite3, a
 * script) while the sandbox runs. Then `PRAGMA quick_check` (the structure of every page, not
 * the index contents) refuses a corrupted file with one line instead of starting and failing
 * later on some request.
 */
function takeLock(path: string, file: string): Db {
  const lockPath = `${file}.lock`;
  let lock: Db | undefined;
  try {
    lock = new Database(lockPath, { timeout: 0 }); // a held lock is reported at once, not after 5 s
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE; COMMIT'); // takes the exclusive lock now, and keeps it
  } catch (err) {
    if (lock?.open) lock.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseOpenError(
        `the database file ${path}${file === path ? '' : ` (${file})`} is in use by another payment-sandbox process (one process per --db file; stop the other one or choose another file)`,
      );
    }
    throw new DatabaseOpenError(
      `cannot open the database file ${path} (its lock file ${lockPath}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
    );
  }
  // A hard link or a bind mount is the same file (device and inode) under a second path, with a
  // lock file of its own: the file itself is asked whether a process holds it.
  try {
    refuseIfFileHeld(path, file);
  } catch (err) {
    lock.close();
    throw err;
  }
  return lock;
}

/**
 * Refuses a database file another process holds, whatever path that process opened it by.
 * Every open connection of a sandbox holds SQLite's shared lock on the file itself (WAL mode),
 * and the operating system keeps that lock on the file's device and inode, not on a path; so
 * a connection that asks for the exclusive lock (`locking_mode = EXCLUSIVE`, then a
 * transaction) is answered SQLITE_BUSY at once while any other process has the file open, and
 * is closed again before this process opens it. A file not created yet has nobody to hold it;
 * another failure (not a database) is left to the open, which says what is wrong.
 */
function refuseIfFileHeld(path: string, file: string): void {
  try {
    statSync(file);
  } catch {
    return;
  }
  let probe: Db | undefined;
  try {
    probe = new Database(file, { timeout: 0, fileMustExist: true });
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseOpenError(
        `the database file ${path}${file === path ? '' : ` (${file})`} is in use by another payment-sandbox process, under this or another path (a link or a bind mount of the same file); one process per --db file: stop the other one or choose another file`,
      );
    }
  } finally {
    if (probe?.open) probe.close();
  }
}

/**
 * The file `path` names once every symbolic link is followed, absolute: the lock and the
 * write-ahead log go beside it, wherever the database is opened from. A file that does not
 * exist yet (SQLite creates it) is named by its folder's real path.
 */
function realFile(path: string, depth = 0): string {
  try {
    return realpathSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || depth > 40) throw err;
  }
  let target: string | undefined;
  try {
    target = readlinkSync(path); // a link to a file not created yet
  } catch {
    return join(realpathSync(dirname(resolve(path))), basename(path));
  }
  return realFile(resolve(dirname(path), target), depth + 1);
}

/** The lock is released with the database: closing `db` closes `lock` too. */
function holdLock(db: Db, lock: Db): void {
  const closeDb = db.close.bind(db);
  db.close = () => {
    closeDb();
    if (lock.open) lock.close();
    return db;
  };
}

/** `PRAGMA quick_check` at start: a damaged file is refused with one line. */
function quickCheck(db: Db, path: string): void {
  const problems = db.pragma('quick_check(5)') as { quick_check: string }[];
  const first = problems[0]?.quick_check;
  if (first !== 'ok')
    throw new DatabaseOpenError(
      `the database file ${path} is corrupted (${String(first).split('\n')[0]}); restore a backup or start with a new file`,
    );
}

/** Reads a value from the meta table. */
export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

/** Writes a value to the meta table. */
export function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
