/**
 * The schema of the database, one migration per version: `openDatabase` (database.ts) runs
 * each once, in order, tracked with `PRAGMA user_version`. Append new versions at the end;
 * never edit one that has shipped.
 */

export const MIGRATIONS: string[] = [
  /* 1: core */ `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

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
  /* 2: webhooks, subscriptions, scheduled scenario steps */ `
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
  /* 3: the request log searched by path (GET /_sandbox/requests?path=): the path without its query string */ `
  ALTER TABLE request_log ADD COLUMN bare_path TEXT
    GENERATED ALWAYS AS (CASE WHEN instr(path, '?') > 0 THEN substr(path, 1, instr(path, '?') - 1) ELSE path END) VIRTUAL;
  CREATE INDEX request_log_path ON request_log (bare_path, seq);
  `,
  /* 4: payment methods and the customer's step: decline reasons, payment-link expiry */ `
  ALTER TABLE transactions ADD COLUMN decline_reason TEXT;
  ALTER TABLE transactions ADD COLUMN link_expires_at INTEGER;
  CREATE INDEX transactions_link_expiry ON transactions (link_expires_at) WHERE status = 'PENDING' AND link_expires_at IS NOT NULL;
  `,
  /* 5: scripted webhook faults (duplicate, out_of_order, delayed, bad_signature) */ `
  ALTER TABLE deliveries ADD COLUMN fault TEXT;
  `,
  /* 6: restricted API keys (only the secret's SHA-256 and last four characters are kept) */ `
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
  /* 7: the queue a webhook waits in when it is ordered beyond its own transaction (a subscription's charges) */ `
  ALTER TABLE deliveries ADD COLUMN order_key TEXT;
  CREATE INDEX deliveries_order ON deliveries (order_key, seq) WHERE order_key IS NOT NULL;
  `,
  /* 8: a queue's pending deliveries alone, so its head is found without reading what was delivered */ `
  DROP INDEX deliveries_order;
  CREATE INDEX deliveries_queue ON deliveries (order_key, seq) WHERE status = 'pending' AND order_key IS NOT NULL;
  `,
  /* 9: whether a create's answer reached the client (null for a request that is not a create) */ `
  ALTER TABLE request_log ADD COLUMN answer_delivered INTEGER;
  `,
  /* 10: the webhook canary: a bad-signature copy sent once per URL of an account, after its first acknowledged delivery */ `
  ALTER TABLE deliveries ADD COLUMN canary INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX deliveries_canary ON deliveries (account_id, url) WHERE canary = 1;
  `,
  /* 11: a delivery's body stored once: every attempt sent the delivery's own body, so an attempt keeps only its headers and answer */ `
  ALTER TABLE delivery_attempts DROP COLUMN request_body;
  `,
];

/** The go-live report's saved state, a table its store creates when it first opens (a snapshot may hold it). */
export const GO_LIVE_STATE_TABLE = 'CREATE TABLE IF NOT EXISTS go_live_state (account_id TEXT PRIMARY KEY, state TEXT NOT NULL)';
