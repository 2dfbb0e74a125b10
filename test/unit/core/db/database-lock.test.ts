/**
 * One process per database file, whatever name it is opened by: a symbolic link or a hard
 * link (or a bind mount: the same device and inode) to the file of a running sandbox is
 * refused with one line, and `--restore` onto such a
 * link is refused before anything is written (the live file stays as it was). SQLite's locks
 * are shared by the connections of one process, so a second open here stands for a second
 * process (the CLI test in test/e2e/robustness/process.test.ts shows it across processes).
 */
import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { DatabaseOpenError, openDatabase, setMeta } from '../../../../src/core/db/database.js';
import { readSnapshot, takeSnapshot } from '../../../../src/core/db/snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'payment-sandbox-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refusal = (open: () => unknown): string => {
  try {
    open();
  } catch (err) {
    expect(err).toBeInstanceOf(DatabaseOpenError);
    return (err as Error).message;
  }
  throw new Error('opened');
};

describe('the one-process lock, by any name of the file', () => {
  it('a symbolic link to a running sandbox database is refused with one line', () => {
    const live = openDatabase(join(dir, 'sym-live.db'), SANDBOX_SCHEMA);
    symlinkSync(join(dir, 'sym-live.db'), join(dir, 'sym-link.db'));
    const message = refusal(() => openDatabase(join(dir, 'sym-link.db'), SANDBOX_SCHEMA));
    expect(message).toMatch(/sym-link\.db .*in use by another payment-sandbox process/);
    expect(message).not.toContain('\n');
    live.close();
    // freed with the first: the link opens the same database
    const again = openDatabase(join(dir, 'sym-link.db'), SANDBOX_SCHEMA);
    again.close();
  });

  it('a symbolic link to a database not created yet takes the lock of the file it names', () => {
    symlinkSync(join(dir, 'later.db'), join(dir, 'later-link.db'));
    const first = openDatabase(join(dir, 'later-link.db'), SANDBOX_SCHEMA);
    expect(refusal(() => openDatabase(join(dir, 'later.db'), SANDBOX_SCHEMA))).toMatch(/in use by another payment-sandbox process/);
    first.close();
  });

  it('a hard link to a running sandbox database is refused with one line: the lock is on the file (device and inode)', () => {
    const live = openDatabase(join(dir, 'hard-live.db'), SANDBOX_SCHEMA);
    setMeta(live, 'from', 'live');
    linkSync(join(dir, 'hard-live.db'), join(dir, 'hard-link.db'));
    const message = refusal(() => openDatabase(join(dir, 'hard-link.db'), SANDBOX_SCHEMA));
    expect(message).toMatch(/hard-link\.db .*in use by another payment-sandbox process/);
    expect(message).not.toContain('\n');
    live.close();
    // freed with the first: the link opens the same database
    const again = openDatabase(join(dir, 'hard-link.db'), SANDBOX_SCHEMA);
    expect((again.prepare("SELECT value FROM meta WHERE key = 'from'").get() as { value: string }).value).toBe('live');
    again.close();
  });

  it('a restore onto a link to a running sandbox database is refused and the live file is unchanged', async () => {
    const snapshotDb = openDatabase(':memory:', SANDBOX_SCHEMA);
    setMeta(snapshotDb, 'from', 'snapshot');
    const snapshotFile = join(dir, 'snap.sqlite');
    writeFileSync(snapshotFile, await takeSnapshot(snapshotDb));
    snapshotDb.close();
    const bytes = readSnapshot(snapshotFile, SANDBOX_SCHEMA);

    const live = openDatabase(join(dir, 'restore-live.db'), SANDBOX_SCHEMA);
    setMeta(live, 'from', 'live');
    live.pragma('wal_checkpoint(TRUNCATE)');
    const before = readFileSync(join(dir, 'restore-live.db'));
    symlinkSync(join(dir, 'restore-live.db'), join(dir, 'restore-sym.db'));
    linkSync(join(dir, 'restore-live.db'), join(dir, 'restore-hard.db'));
    expect(refusal(() => openDatabase(join(dir, 'restore-sym.db'), SANDBOX_SCHEMA, bytes))).toMatch(
      /in use by another payment-sandbox process/,
    );
    expect(refusal(() => openDatabase(join(dir, 'restore-hard.db'), SANDBOX_SCHEMA, bytes))).toMatch(
      /in use by another payment-sandbox process/,
    );
    expect(readFileSync(join(dir, 'restore-live.db')).equals(before)).toBe(true);
    expect((live.prepare("SELECT value FROM meta WHERE key = 'from'").get() as { value: string }).value).toBe('live');
    live.close();
  });
});
