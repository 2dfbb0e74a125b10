/**
 * The go-live report's aggregates on disk (`go-live-tracker.ts` → `GoLiveStateRepo`):
 * one JSON row per account in `go_live_state`, so findings and coverage survive a restart
 * with `--db` as the rest of the state does (and travel in a snapshot). The tracker keeps
 * them in memory; a save is written a few milliseconds later, once per account however many
 * changes came in between (a burst of requests is one write), and at once on `flush` (before
 * a close). The table is created here if missing, outside the numbered migrations: it holds
 * derived data only, and nothing else reads it.
 */
import type { GoLiveAccountState, GoLiveStateRepo } from './go-live-findings.js';
import type { Db } from '../../core/db/database.js';

/** Saves are written this long after the first of a burst (ms). */
export const GO_LIVE_FLUSH_AFTER_MS = 25;

export interface BatchedGoLiveStore extends GoLiveStateRepo {
  /** Writes every pending save now. */
  flush(): void;
}

/** The table's definition, created when the store opens (a snapshot may hold it: see core/db/snapshot.ts). */
export const GO_LIVE_STATE_TABLE = 'CREATE TABLE IF NOT EXISTS go_live_state (account_id TEXT PRIMARY KEY, state TEXT NOT NULL)';

export function goLiveStore(db: Db, onError: (err: unknown) => void = () => {}): BatchedGoLiveStore {
  db.exec(GO_LIVE_STATE_TABLE);
  const upsert = db.prepare<[string, string]>(
    'INSERT INTO go_live_state (account_id, state) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET state = excluded.state',
  );
  const pending = new Map<string, GoLiveAccountState>();
  let timer: NodeJS.Timeout | undefined;

  const write = db.transaction((rows: [string, string][]) => {
    for (const row of rows) upsert.run(...row);
  });
  const flush = (): void => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.size === 0 || !db.open) return;
    const rows = [...pending].map(([id, state]): [string, string] => [id, JSON.stringify(state)]);
    pending.clear();
    write(rows);
  };

  return {
    loadAll() {
      const states = new Map<string, GoLiveAccountState>();
      for (const row of db.prepare<[], { account_id: string; state: string }>('SELECT account_id, state FROM go_live_state').all()) {
        try {
          const state = JSON.parse(row.state) as GoLiveAccountState;
          if (state && typeof state === 'object' && Array.isArray(state.coverage)) states.set(row.account_id, state);
        } catch {
          // an unreadable row is derived data: start that account afresh
        }
      }
      return states;
    },
    save(accountId, state) {
      pending.set(accountId, state);
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        try {
          flush();
        } catch (err) {
          onError(err);
        }
      }, GO_LIVE_FLUSH_AFTER_MS);
      timer.unref();
    },
    clear() {
      pending.clear();
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      if (db.open) db.exec('DELETE FROM go_live_state');
    },
    flush,
  };
}
