/**
 * The `scheduled_steps` table (`vocabulary.ts` → `ScheduledStepsRepo`): scenario steps
 * waiting for their instant on the sandbox clock. `kind` and `payload` (JSON) hold the
 * step's action; `done` is 0 while waiting, 1 once applied, 2 when skipped (the transaction
 * had changed meanwhile, e.g. settled by hand).
 */
import type { Db } from '../../core/db/database.js';
import { accountTimedQuery } from '../../core/db/account-time.js';
import { createAccountClocks, type AccountClocks } from '../../core/clock/account-clocks.js';
import type { ScheduledAction, ScheduledStep, ScheduledStepsRepo, StepResult } from './vocabulary.js';

interface ScheduledStepRow {
  seq: number;
  account_id: string;
  due_at: number;
  kind: ScheduledAction['kind'];
  resource_id: string;
  payload: string;
  done: number;
}

const DONE: Record<StepResult | 'waiting', number> = { waiting: 0, applied: 1, skipped: 2 };
const DONE_NAMES = ['waiting', 'applied', 'skipped'] as const;

function toStep(row: ScheduledStepRow): ScheduledStep {
  const { kind: _kind, ...payload } = JSON.parse(row.payload) as Omit<ScheduledAction, 'kind'> & { kind?: string };
  return {
    seq: row.seq,
    account_id: row.account_id,
    due_at: row.due_at,
    resource_id: row.resource_id,
    action: { ...payload, kind: row.kind } as ScheduledAction,
  };
}

/** The scheduled steps; a step's `due_at` is on its account's clock (`clocks`). */
export function scheduledStepsStore(db: Db, clocks: AccountClocks = createAccountClocks()): ScheduledStepsRepo {
  const insert = db.prepare(`INSERT INTO scheduled_steps (account_id, due_at, kind, resource_id, payload)
    VALUES (@account_id, @due_at, @kind, @resource_id, @payload)`);
  const due = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT * FROM scheduled_steps WHERE done = 0 AND ${q.scope} AND ${q.due('due_at')} <= ? ORDER BY ${q.due('due_at')}, seq`,
  );
  const nextDue = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT min(${q.due('due_at')}) FROM scheduled_steps WHERE done = 0 AND ${q.scope}`,
    {
      pluck: true,
    },
  );
  const finish = db.prepare('UPDATE scheduled_steps SET done = ? WHERE seq = ?');
  const forResource = db.prepare<[string], ScheduledStepRow>('SELECT * FROM scheduled_steps WHERE resource_id = ? ORDER BY due_at, seq');
  return {
    insert: (step) => {
      const { kind, ...payload } = step.action;
      insert.run({
        account_id: step.account_id,
        due_at: step.due_at,
        kind,
        resource_id: step.resource_id,
        payload: JSON.stringify(payload),
      });
    },
    due: (nowMs) => due.all<ScheduledStepRow>(nowMs).map(toStep),
    nextDue: () => nextDue.get<number | null>() ?? null,
    finish: (seq, result) => void finish.run(DONE[result], seq),
    forResource: (resourceId) => forResource.all(resourceId).map((row) => ({ ...toStep(row), done: DONE_NAMES[row.done] ?? 'waiting' })),
  };
}
