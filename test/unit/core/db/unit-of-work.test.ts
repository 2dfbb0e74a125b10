/**
 * The unit of work over SQLite (store/unit-of-work.ts), which runs every unit through one
 * transaction function: a run commits, a nested run is a savepoint that can roll back alone,
 * and after-commit effects run once the outermost run commits, never for work rolled back.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_SCHEMA } from '../../../../src/sandbox-schema.js';
import { openDatabase } from '../../../../src/core/db/database.js';
import { createUnitOfWork } from '../../../../src/core/db/unit-of-work.js';

function setUp() {
  const db = openDatabase(':memory:', SANDBOX_SCHEMA);
  const errors: unknown[] = [];
  const uow = createUnitOfWork(db, (err) => errors.push(err));
  const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  const keys = () =>
    db
      .prepare<[], { key: string }>('SELECT key FROM meta ORDER BY key')
      .all()
      .map((r) => r.key);
  return { db, uow, put, keys, errors };
}

describe('the unit of work', () => {
  it('commits a run, and runs its effects after the commit, in order', () => {
    const { db, uow, put, keys } = setUp();
    const seen: string[] = [];
    const result = uow.run(() => {
      put.run('a', '1');
      uow.afterCommit(() => seen.push(`first, in transaction: ${db.inTransaction}`));
      uow.afterCommit(() => seen.push('second'));
      return 42;
    });
    expect(result).toBe(42);
    expect(keys()).toEqual(['a']);
    expect(seen).toEqual(['first, in transaction: false', 'second']);
  });

  it('rolls a failed nested run back alone, with its effects; the outer run still commits', () => {
    const { uow, put, keys } = setUp();
    const seen: string[] = [];
    uow.run(() => {
      put.run('outer', '1');
      uow.afterCommit(() => seen.push('outer'));
      expect(() =>
        uow.run(() => {
          put.run('inner', '1');
          uow.afterCommit(() => seen.push('inner'));
          throw new Error('inner fails');
        }),
      ).toThrow('inner fails');
      uow.run(() => {
        put.run('second', '1');
        uow.afterCommit(() => seen.push('second'));
      });
    });
    expect(keys()).toEqual(['outer', 'second']);
    expect(seen).toEqual(['outer', 'second']);
  });

  it('a failed outer run stores nothing and runs no effect; the next run works as usual', () => {
    const { db, uow, put, keys } = setUp();
    const seen: string[] = [];
    expect(() =>
      uow.run(() => {
        put.run('lost', '1');
        uow.run(() => uow.afterCommit(() => seen.push('lost')));
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    expect(db.inTransaction).toBe(false);
    uow.run(() => put.run('kept', '1'));
    expect(keys()).toEqual(['kept']);
    expect(seen).toEqual([]);
  });

  it("a join inside a run is part of it, with no savepoint: its failure is the whole unit's; alone, a join is a run", () => {
    const { db, uow, put, keys } = setUp();
    const seen: string[] = [];
    uow.run(() => {
      put.run('outer', '1');
      expect(() =>
        uow.join(() => {
          put.run('joined', '1');
          uow.afterCommit(() => seen.push('joined'));
          throw new Error('joined fails');
        }),
      ).toThrow('joined fails');
    });
    // No savepoint was taken for the join, so nothing of it was rolled back alone.
    expect(keys()).toEqual(['joined', 'outer']);
    expect(seen).toEqual(['joined']);
    uow.join(() => {
      expect(db.inTransaction).toBe(true);
      put.run('alone', '1');
    });
    expect(db.inTransaction).toBe(false);
    expect(keys()).toEqual(['alone', 'joined', 'outer']);
  });

  it('refuses work that returns a promise (a transaction cannot span an await)', () => {
    const { db, uow } = setUp();
    expect(() => uow.run(() => Promise.resolve(1))).toThrow(/promise/);
    expect(db.inTransaction).toBe(false);
  });
});
