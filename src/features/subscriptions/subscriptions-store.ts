/**
 * The `subscriptions` table (`ports.ts` → `SubscriptionsRepo`). `request` (the
 * creation body as stored) and `state` (the billing progress) are JSON text, parsed and
 * written here only; `next_charge_at` is the sandbox-clock instant of the next charge.
 */
import type { RuleSnapshot } from '../scenarios/index.js';
import type { Subscription, SubscriptionState } from './entities.js';
import type { SubscriptionsRepo } from './ports.js';
import type { Db } from '../../core/db/database.js';
import { accountTimedQuery } from '../../core/db/account-time.js';
import { createAccountClocks, type AccountClocks } from '../../core/clock/account-clocks.js';
import { keysetPage } from '../../core/db/keyset.js';

/** A `subscriptions` row as SQLite holds it. */
interface SubscriptionRow extends Omit<Subscription, 'request' | 'state'> {
  request: string;
  state: string;
}

/** The state of a database written before the rule snapshot (`scenario_rule` + `steps`). */
interface EarlierState extends Omit<SubscriptionState, 'rule'> {
  scenario_rule?: string | null;
  steps?: unknown[];
}

function stateOf(json: string): SubscriptionState {
  const parsed = JSON.parse(json) as SubscriptionState | EarlierState;
  if ('rule' in parsed) return parsed;
  const { scenario_rule: label, steps, ...rest } = parsed;
  const rule: RuleSnapshot | null = label ? { label, steps: steps ?? [] } : null;
  return { ...rest, rule };
}

function toSubscription(row: SubscriptionRow): Subscription {
  return { ...row, request: JSON.parse(row.request) as Subscription['request'], state: stateOf(row.state) };
}

export function subscriptionsStore(db: Db, clocks: AccountClocks = createAccountClocks()): SubscriptionsRepo {
  const insert = db.prepare(`INSERT INTO subscriptions (id, account_id, external_identifier, status, request, state,
      next_charge_at, created_at, updated_at)
    VALUES (@id, @account_id, @external_identifier, @status, @request, @state, @next_charge_at, @created_at, @updated_at)`);
  const byId = db.prepare<[string, string], SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ? AND account_id = ?');
  const byIdAny = db.prepare<[string], SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?');
  const byExternal = db.prepare<[string, string], SubscriptionRow>(
    'SELECT * FROM subscriptions WHERE account_id = ? AND external_identifier = ?',
  );
  const due = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT * FROM subscriptions WHERE ${q.due('next_charge_at')} <= ? AND ${q.scope} AND status IN ('active', 'past_due')
      ORDER BY ${q.due('next_charge_at')}, seq`,
  );
  const nextDue = accountTimedQuery(
    db,
    clocks,
    (q) => `SELECT min(${q.due('next_charge_at')}) FROM subscriptions WHERE status IN ('active', 'past_due') AND ${q.scope}`,
    { pluck: true },
  );
  const update = db.prepare(`UPDATE subscriptions SET status = @status, state = @state, next_charge_at = @next_charge_at,
      updated_at = @updated_at WHERE id = @id`);
  const page = keysetPage<SubscriptionRow, Subscription>(db, 'subscriptions', 'account_id = @scope', toSubscription);
  const pageAll = keysetPage<SubscriptionRow, Subscription>(db, 'subscriptions', "@scope = ''", toSubscription);
  const maybe = (row: SubscriptionRow | undefined): Subscription | undefined => (row ? toSubscription(row) : undefined);
  return {
    insert: (sub) => void insert.run({ ...sub, request: JSON.stringify(sub.request), state: JSON.stringify(sub.state) }),
    byId: (accountId, id) => maybe(byId.get(id, accountId)),
    byIdAnyAccount: (id) => maybe(byIdAny.get(id)),
    byExternalIdentifier: (accountId, externalIdentifier) => maybe(byExternal.get(accountId, externalIdentifier)),
    page,
    pageAll: (req) => pageAll('', req),
    due: (nowMs) => due.all<SubscriptionRow>(nowMs).map(toSubscription),
    nextDue: () => nextDue.get<number | null>() ?? null,
    update: (id, fields) => void update.run({ ...fields, state: JSON.stringify(fields.state), id }),
  };
}
