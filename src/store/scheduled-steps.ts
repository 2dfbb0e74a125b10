/**
 * Queries of the `scheduled_steps` table: scenario steps waiting for their instant on the
 * sandbox clock (`scenarios/engine.ts`). `done` is 0 while waiting, 1 once applied, 2 when
 * skipped (the transaction had changed meanwhile, e.g. settled by hand).
 */
import type { Db } from './database.js';

/** What a step does when it falls due. */
export type ScheduledStepKind = 'outcome' | 'refund';

export const STEP_WAITING = 0;
export const STEP_APPLIED = 1;
export const STEP_SKIPPED = 2;

export interface ScheduledStepRow {
  seq: number;
  account_id: string;
  due_at: number;
  kind: ScheduledStepKind;
  /** The transaction the step acts on. */
  resource_id: string;
  /** JSON of the step's parameters. */
  payload: string;
  done: number;
}

export interface ScheduledStepsStore {
  insert(row: Omit<ScheduledStepRow, 'seq' | 'done'>): void;
  /** Waiting steps due at or before `nowMs`, in time order (ties: insertion order). */
  due(nowMs: number): ScheduledStepRow[];
  /** The earliest `due_at` of a waiting step. */
  nextDue(): number | null;
  /** Marks a step applied or skipped. */
  finish(seq: number, done: typeof STEP_APPLIED | typeof STEP_SKIPPED): void;
  forResource(resourceId: string): ScheduledStepRow[];
}

export function scheduledStepsStore(db: Db): ScheduledStepsStore {
  const insert = db.prepare(`INSERT INTO scheduled_steps (account_id, due_at, kind, resource_id, payload)
    VALUES (@account_id, @due_at, @kind, @resource_id, @payload)`);
  const due = db.prepare('SELECT * FROM scheduled_steps WHERE done = 0 AND due_at <= ? ORDER BY due_at, seq');
  const nextDue = db.prepare('SELECT min(due_at) FROM scheduled_steps WHERE done = 0').pluck();
  const finish = db.prepare('UPDATE scheduled_steps SET done = ? WHERE seq = ?');
  const forResource = db.prepare('SELECT * FROM scheduled_steps WHERE resource_id = ? ORDER BY due_at, seq');
  return {
    insert: (row) => void insert.run(row),
    due: (nowMs) => due.all(nowMs) as ScheduledStepRow[],
    nextDue: () => (nextDue.get() as number | null) ?? null,
    finish: (seq, done) => void finish.run(done, seq),
    forResource: (resourceId) => forResource.all(resourceId) as ScheduledStepRow[],
  };
}
