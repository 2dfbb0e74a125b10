/**
 * The sandbox's database schema: the core's tables and each feature's, gathered by version
 * (`collectSchema`, core/db/migrations.ts). A database made by an earlier release is migrated
 * from the version it holds, as before: each version's parts run once, together.
 */
import { CORE_MIGRATIONS, collectSchema, type Schema } from './core/db/migrations.js';
import { accountsMigrations } from './features/accounts/index.js';
import { buyersMigrations } from './features/buyers/index.js';
import { GO_LIVE_STATE_TABLE } from './features/go-live/index.js';
import { scenariosMigrations } from './features/scenarios/index.js';
import { subscriptionsMigrations } from './features/subscriptions/index.js';
import { transactionsMigrations } from './features/transactions/index.js';

export const SANDBOX_SCHEMA: Schema = collectSchema(
  [CORE_MIGRATIONS, accountsMigrations, buyersMigrations, transactionsMigrations, subscriptionsMigrations, scenariosMigrations],
  [GO_LIVE_STATE_TABLE],
);
