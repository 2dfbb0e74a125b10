/**
 * The schema of the database as numbered versions, each run once, in order, tracked with
 * `PRAGMA user_version` (`openDatabase`, database.ts). A version is made of parts: the core's
 * own tables are here, and each feature contributes the parts of its tables (its
 * `migrations.ts`); `collectSchema` orders the parts by version. Append new versions at the
 * end; never edit a part that has shipped.
 */

/** One piece of a schema version: the SQL one owner (the core or a feature) runs in version `version`. */
export interface MigrationPart {
  version: number;
  sql: string;
}

/** The schema a database is migrated to: each version's SQL in order (index 0 is version 1), and the tables a part of the sandbox creates when it opens. */
export interface Schema {
  versions: readonly string[];
  /** `CREATE TABLE IF NOT EXISTS` statements run when their store opens, outside the versions (a snapshot may hold their tables). */
  created: readonly string[];
}

/**
 * The schema made of every owner's parts: each version's parts in the order the owners are
 * given. The versions must run from 1 without a gap.
 * @throws Error naming the missing version.
 */
export function collectSchema(owners: readonly (readonly MigrationPart[])[], created: readonly string[] = []): Schema {
  const byVersion = new Map<number, string[]>();
  for (const part of owners.flat()) byVersion.set(part.version, [...(byVersion.get(part.version) ?? []), part.sql]);
  const versions: string[] = [];
  for (let version = 1; version <= byVersion.size; version++) {
    const sql = byVersion.get(version);
    if (sql === undefined) throw new Error(`schema version ${version} has no part`);
    versions.push(sql.join('\n'));
  }
  return { versions, created };
}

/** The core's own tables: meta, idempotency keys, the request log, webhook deliveries and their attempts, restricted API keys. */
export const CORE_MIGRATIONS: readonly MigrationPart[] = [
  /* 1: the core: meta, idempotency keys, the request log */
  {
    version: 1,
    sql: `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('processing', 'done')),
    response_status INTEGER,
    response_body TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
  );
  CREATE TABLE request_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER NOT NULL,
    idempotency_key TEXT,
    replayed INTEGER NOT NULL DEFAULT 0,
    duration_ms REAL NOT NULL,
    request_body TEXT,
    response_body TEXT,
    warnings TEXT,
    at INTEGER NOT NULL
  );
  CREATE INDEX request_log_account ON request_log (account_id, seq);
  `,
  },
  /* 2: webhooks: deliveries and their attempts */
  {
    version: 2,
    sql: `
  CREATE TABLE deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('payment', 'refund')),
    resource_id TEXT NOT NULL,
    url TEXT,
    body TEXT NOT NULL,
    signature TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    simulated_failures INTEGER NOT NULL DEFAULT 0,
    simulated_failure_status INTEGER NOT NULL DEFAULT 503,
    next_attempt_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    delivered_at INTEGER
  );
  CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
  CREATE INDEX deliveries_account ON deliveries (account_id, seq);
  CREATE INDEX deliveries_resource ON deliveries (resource_id);
  CREATE TABLE delivery_attempts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    at INTEGER NOT NULL,
    url TEXT,
    request_headers TEXT NOT NULL,
    request_body TEXT NOT NULL,
    response_status INTEGER,
    response_body TEXT,
    error TEXT,
    duration_ms REAL NOT NULL,
    ok INTEGER NOT NULL
  );
  CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, seq);
  `,
  },
  /* 3: the request log searched by path (GET /_sandbox/requests?path=): the path without its query string */
  {
    version: 3,
    sql: `
  ALTER TABLE request_log ADD COLUMN bare_path TEXT
    GENERATED ALWAYS AS (CASE WHEN instr(path, '?') > 0 THEN substr(path, 1, instr(path, '?') - 1) ELSE path END) VIRTUAL;
  CREATE INDEX request_log_path ON request_log (bare_path, seq);
  `,
  },
  /* 5: scripted webhook faults (duplicate, out_of_order, delayed, bad_signature) */
  {
    version: 5,
    sql: `
  ALTER TABLE deliveries ADD COLUMN fault TEXT;
  `,
  },
  /* 6: restricted API keys (only the secret's SHA-256 and last four characters are kept) */
  {
    version: 6,
    sql: `
  CREATE TABLE api_keys (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    name TEXT,
    scopes TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    secret_last4 TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX api_keys_account ON api_keys (account_id, seq);
  `,
  },
  /* 7: the queue a webhook waits in when it is ordered beyond its own transaction (a subscription's charges) */
  {
    version: 7,
    sql: `
  ALTER TABLE deliveries ADD COLUMN order_key TEXT;
  CREATE INDEX deliveries_order ON deliveries (order_key, seq) WHERE order_key IS NOT NULL;
  `,
  },
  /* 8: a queue's pending deliveries alone, so its head is found without reading what was delivered */
  {
    version: 8,
    sql: `
  DROP INDEX deliveries_order;
  CREATE INDEX deliveries_queue ON deliveries (order_key, seq) WHERE status = 'pending' AND order_key IS NOT NULL;
  `,
  },
  /* 9: whether a create's answer reached the client (null for a request that is not a create) */
  {
    version: 9,
    sql: `
  ALTER TABLE request_log ADD COLUMN answer_delivered INTEGER;
  `,
  },
  /* 10: the webhook canary: a bad-signature copy sent once per URL of an account, after its first acknowledged delivery */
  {
    version: 10,
    sql: `
  ALTER TABLE deliveries ADD COLUMN canary INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX deliveries_canary ON deliveries (account_id, url) WHERE canary = 1;
  `,
  },
  /* 11: a delivery's body stored once: every attempt sent the delivery's own body, so an attempt keeps only its headers and answer */
  {
    version: 11,
    sql: `
  ALTER TABLE delivery_attempts DROP COLUMN request_body;
  `,
  },
];
