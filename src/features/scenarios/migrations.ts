/**
 * The `scheduled_steps` table (the scenario runner's steps), as this feature's parts of the sandbox's numbered schema versions (the core's
 * runner, `core/db/migrations.ts`, runs each version once). Never edit a part that has shipped:
 * a change is a part of a new version.
 */
import type { MigrationPart } from '../../core/db/migrations.js';

export const scenariosMigrations: readonly MigrationPart[] = [
  /* 2: scheduled scenario steps */
  {
    version: 2,
    sql: `
  CREATE TABLE scheduled_steps (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX scheduled_steps_due ON scheduled_steps (done, due_at);
  `,
  },
];
