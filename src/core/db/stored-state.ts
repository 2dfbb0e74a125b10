/**
 * The stored state as a whole: a consistent copy of it (`GET /_sandbox/snapshot`), and which
 * start-up fixtures documents it already holds, so a `--db` file or a restored snapshot is not
 * seeded twice (kept as `fixtures_applied:<hash>` metadata, stamped with the sandbox time).
 */
import { isoTimestamp } from '../clock/clock.js';

export interface StoredStateDeps {
  /** An online backup of the database as an SQLite file's bytes. */
  snapshot(): Promise<Buffer>;
  /** The database's key/value metadata; `set` joins the caller's unit of work. */
  meta: { get(key: string): string | undefined; set(key: string, value: string): void };
  nowMs(): number;
}

export interface StoredState {
  /** A consistent copy of the whole state as an SQLite file's bytes (requests go on meanwhile). */
  snapshot(): Promise<Buffer>;
  /** Start-up fixtures documents this database holds, by a hash of the document. */
  appliedFixtures: { has(hash: string): boolean; add(hash: string): void };
}

export function createStoredState({ snapshot, meta, nowMs }: StoredStateDeps): StoredState {
  const key = (hash: string): string => `fixtures_applied:${hash}`;
  return {
    snapshot,
    appliedFixtures: {
      has: (hash) => meta.get(key(hash)) !== undefined,
      add: (hash) => meta.set(key(hash), isoTimestamp(nowMs())),
    },
  };
}
