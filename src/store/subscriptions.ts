/**
 * Queries of the `subscriptions` table. `request` (the validated creation body) and `state`
 * (the billing progress, see `domain/subscriptions.ts`) are JSON text; `next_charge_at` is
 * the sandbox-clock instant of the next charge attempt, null when none is due.
 */
import type { Db } from './database.js';
import { keysetPage, type Page, type PageRequest } from './keyset.js';

/** The spec's subscription statuses. */
export type SubscriptionStatus = 'failed' | 'active' | 'past_due' | 'cancelled';

export interface SubscriptionRow {
  seq: number;
  id: string;
  account_id: string;
  external_identifier: string;
  status: SubscriptionStatus;
  /** JSON of the validated creation request (defaults applied). */
  request: string;
  /** JSON of the billing state. */
  state: string;
  next_charge_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionsStore {
  insert(row: Omit<SubscriptionRow, 'seq'>): void;
  /** The subscription of that account, or undefined (another account's is not found). */
  byId(accountId: string, id: string): SubscriptionRow | undefined;
  /** Any account's subscription (control API, billing). */
  byIdAnyAccount(id: string): SubscriptionRow | undefined;
  byExternalIdentifier(accountId: string, externalIdentifier: string): SubscriptionRow | undefined;
  page(accountId: string, req: PageRequest): Page<SubscriptionRow>;
  pageAll(req: PageRequest): Page<SubscriptionRow>;
  /** Active or past_due subscriptions whose next charge is due at or before `nowMs`, earliest first. */
  due(nowMs: number): SubscriptionRow[];
  /** The earliest `next_charge_at` of an active or past_due subscription. */
  nextDue(): number | null;
  update(id: string, fields: Pick<SubscriptionRow, 'status' | 'state' | 'next_charge_at' | 'updated_at'>): void;
}

export function subscriptionsStore(db: Db): SubscriptionsStore {
  const insert = db.prepare(`INSERT INTO subscriptions (id, account_id, external_identifier, status, request, state,
      next_charge_at, created_at, updated_at)
    VALUES (@id, @account_id, @external_identifier, @status, @request, @state, @next_charge_at, @created_at, @updated_at)`);
  const byId = db.prepare('SELECT * FROM subscriptions WHERE id = ? AND account_id = ?');
  const byIdAny = db.prepare('SELECT * FROM subscriptions WHERE id = ?');
  const byExternal = db.prepare('SELECT * FROM subscriptions WHERE account_id = ? AND external_identifier = ?');
  const due = db.prepare(`SELECT * FROM subscriptions WHERE next_charge_at <= ? AND status IN ('active', 'past_due')
    ORDER BY next_charge_at, seq`);
  const nextDue = db.prepare("SELECT min(next_charge_at) FROM subscriptions WHERE status IN ('active', 'past_due')").pluck();
  const update = db.prepare(`UPDATE subscriptions SET status = @status, state = @state, next_charge_at = @next_charge_at,
      updated_at = @updated_at WHERE id = @id`);
  const page = keysetPage<SubscriptionRow>(db, 'subscriptions', 'account_id = @scope');
  const pageAll = keysetPage<SubscriptionRow>(db, 'subscriptions', "@scope = ''");
  return {
    insert: (row) => void insert.run(row),
    byId: (accountId, id) => byId.get(id, accountId) as SubscriptionRow | undefined,
    byIdAnyAccount: (id) => byIdAny.get(id) as SubscriptionRow | undefined,
    byExternalIdentifier: (accountId, externalIdentifier) =>
      byExternal.get(accountId, externalIdentifier) as SubscriptionRow | undefined,
    page,
    pageAll: (req) => pageAll('', req),
    due: (nowMs) => due.all(nowMs) as SubscriptionRow[],
    nextDue: () => (nextDue.get() as number | null) ?? null,
    update: (id, fields) => void update.run({ ...fields, id }),
  };
}
