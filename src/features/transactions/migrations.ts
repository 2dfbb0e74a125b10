/**
 * The `transactions` and `refunds` tables, as this feature's parts of the sandbox's numbered schema versions (the core's
 * runner, `core/db/migrations.ts`, runs each version once). Never edit a part that has shipped:
 * a change is a part of a new version.
 */
import type { MigrationPart } from '../../core/db/migrations.js';

export const transactionsMigrations: readonly MigrationPart[] = [
  /* 1: payments and refunds */
  {
    version: 1,
    sql: `
  CREATE TABLE transactions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
    amount INTEGER NOT NULL,
    currency TEXT NOT NULL,
    description TEXT,
    customer TEXT,
    return_url TEXT,
    cancel_url TEXT,
    external_identifier TEXT,
    notification_url TEXT,
    metadata TEXT,
    payment_method TEXT,
    browser_info TEXT,
    refunded_amount INTEGER NOT NULL DEFAULT 0,
    subscription_id TEXT,
    scenario_rule TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    resolved_at INTEGER
  );
  CREATE INDEX transactions_account ON transactions (account_id, seq);
  CREATE INDEX transactions_subscription ON transactions (subscription_id, seq);
  CREATE TABLE refunds (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    transaction_id TEXT NOT NULL,
    amount INTEGER NOT NULL,
    currency TEXT NOT NULL,
    reason TEXT,
    external_identifier TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX refunds_transaction ON refunds (transaction_id, seq);
  `,
  },
  /* 4: payment methods and the customer's step: decline reasons, payment-link expiry */
  {
    version: 4,
    sql: `
  ALTER TABLE transactions ADD COLUMN decline_reason TEXT;
  ALTER TABLE transactions ADD COLUMN link_expires_at INTEGER;
  CREATE INDEX transactions_link_expiry ON transactions (link_expires_at) WHERE status = 'PENDING' AND link_expires_at IS NOT NULL;
  `,
  },
];
