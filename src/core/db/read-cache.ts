/**
 * Entities read outside any transaction, kept by id so a repeated read needs no SQL (the
 * row read, with its ~23 string values and JSON columns, is most of a GET's and a page's
 * store cost). Safe because this process is the database's only writer and every write of a
 * cached table goes through its repository, which calls `forget(id)` (or `clear()` for a
 * wipe) before the change. Only committed state is ever kept: `remember` does nothing while
 * a transaction is open, so a rolled-back write can never leave its data here. Bounded: the
 * oldest entry goes when `max` is passed. Entities are frozen, so a caller that changed one
 * would fail at once instead of corrupting the next reader's copy.
 */
import type { Db } from './database.js';

/** The default number of entities a cache keeps. */
export const READ_CACHE_MAX = 1_000;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export class ReadCache<T> {
  private readonly byId = new Map<string, T>();

  constructor(
    private readonly db: Db,
    private readonly max = READ_CACHE_MAX,
  ) {}

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** Keeps `entity` (frozen) when no transaction is open; returns it either way. */
  remember(id: string, entity: T): T {
    if (this.db.inTransaction) return entity;
    if (this.byId.size >= this.max && !this.byId.has(id)) {
      const oldest = this.byId.keys().next();
      if (!oldest.done) this.byId.delete(oldest.value);
    }
    this.byId.set(id, deepFreeze(entity));
    return entity;
  }

  /** Drops one entity: called before every write of its row. */
  forget(id: string): void {
    this.byId.delete(id);
  }

  /** Drops every entity (a wipe). */
  clear(): void {
    this.byId.clear();
  }

  get size(): number {
    return this.byId.size;
  }
}
