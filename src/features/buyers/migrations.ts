/**
 * The `buyers` table, as this feature's parts of the sandbox's numbered schema versions (the core's
 * runner, `core/db/migrations.ts`, runs each version once). Never edit a part that has shipped:
 * a change is a part of a new version.
 */
import type { MigrationPart } from '../../core/db/migrations.js';

export const buyersMigrations: readonly MigrationPart[] = [
  /* 1: the generated buyers */
  {
    version: 1,
    sql: `
  CREATE TABLE buyers (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    display_name TEXT,
    external_identifier TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX buyers_account ON buyers (account_id, seq);
  `,
  },
];
