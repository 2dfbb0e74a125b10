/**
 * The unit of work over the SQLite database (`domain/ports.ts` → `UnitOfWork`): nested
 * `run`s become savepoints of one transaction (a `join` inside one adds none), and effects registered with `afterCommit`
 * (change-feed events, the dispatcher's nudge) run after the outermost commit, in order, or
 * not at all when their part of the work rolls back.
 */
import type { UnitOfWork } from '../domain/ports.js';
import type { Db } from './database.js';

interface Level {
  effects: (() => void)[];
  keys: Set<string>;
}

/** A unit of work on `db`; `onEffectError` hears about an effect that threw (the others still run). */
export function createUnitOfWork(db: Db, onEffectError: (err: unknown) => void): UnitOfWork {
  const levels: Level[] = [];
  // One transaction function for every run (it begins a transaction, or a savepoint when one is
  // open): better-sqlite3's `db.transaction(fn)` builds four wrappers each time it is called,
  // several times the cost of the BEGIN and COMMIT themselves.
  const inTransaction = db.transaction((work: () => unknown) => work());

  const queued = (key: string): boolean => levels.some((level) => level.keys.has(key));

  const flush = (effects: (() => void)[]): void => {
    for (const effect of effects) {
      try {
        effect();
      } catch (err) {
        onEffectError(err);
      }
    }
  };

  const uow: UnitOfWork = {
    run<T>(work: () => T): T {
      const level: Level = { effects: [], keys: new Set() };
      levels.push(level);
      let result: T;
      try {
        result = inTransaction(work) as T;
      } finally {
        levels.pop();
      }
      const parent = levels[levels.length - 1];
      if (parent) {
        parent.effects.push(...level.effects);
        for (const key of level.keys) parent.keys.add(key);
      } else {
        flush(level.effects);
      }
      return result;
    },
    join<T>(work: () => T): T {
      return levels.length > 0 ? work() : uow.run(work);
    },
    afterCommit(effect, key) {
      const level = levels[levels.length - 1];
      if (!level) {
        flush([effect]);
        return;
      }
      if (key !== undefined) {
        if (queued(key)) return;
        level.keys.add(key);
      }
      level.effects.push(effect);
    },
  };
  return uow;
}
