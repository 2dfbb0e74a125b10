/**
 * The `subscriptions` table, as this feature's parts of the sandbox's numbered schema versions (the core's
 * runner, `core/db/migrations.ts`, runs each version once). Never edit a part that has shipped:
 * a change is a part of a new version.
 */
import type { MigrationPart } from '../../core/db/migrations.js';

export const subscriptionsMigrations: readonly MigrationPart[] = [
  /* 2: subscriptions */
  {
    version: 2,
    sql: `
  CREATE TABLE subscriptions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    external_identifier TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('failed', 'active', 'past_due', 'cancelled')),
    request TEXT NOT NULL,
    state TEXT NOT NULL,
    next_charge_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, external_identifier)
  );
  CREATE INDEX subscriptions_account ON subscriptions (account_id, seq);
  CREATE INDEX subscriptions_due ON subscriptions (next_charge_at);
  `,
  },
];
