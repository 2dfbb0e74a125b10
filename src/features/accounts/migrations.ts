/**
 * The `accounts` table, as this feature's parts of the sandbox's numbered schema versions (the core's
 * runner, `core/db/migrations.ts`, runs each version once). Never edit a part that has shipped:
 * a change is a part of a new version.
 */
import type { MigrationPart } from '../../core/db/migrations.js';

export const accountsMigrations: readonly MigrationPart[] = [
  /* 1: merchant accounts and their credentials */
  {
    version: 1,
    sql: `
  CREATE TABLE accounts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('direct', 'checkout')),
    api_key TEXT NOT NULL UNIQUE,
    jwt_kid TEXT NOT NULL UNIQUE,
    jwt_private_key_pem TEXT NOT NULL,
    jwt_public_key_pem TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  `,
  },
];
