/**
 * In-memory fakes of the domain's ports (`src/domain/ports.ts`), for unit tests of the
 * domain services without SQLite, HTTP or a socket. The unit of work keeps the documented
 * one promise that matters here: effects run after the outermost `run`, in order, and are
 * dropped when the work throws (the fake repositories do not roll back).
 */
import type { Clock } from '../../src/core/clock/clock.js';
import type { Account } from '../../src/features/accounts/entities.js';
import type { SimulatedFailures } from '../../src/core/domain/entities.js';
import type { Subscription } from '../../src/features/subscriptions/entities.js';
import type { Refund, Transaction } from '../../src/features/transactions/entities.js';
import type { IdempotencyRecord, IdempotencyRepo } from '../../src/core/http/ports.js';
import type {
  ChargeScript,
  ScenarioPolicy,
  ScheduledStep,
  ScheduledStepsRepo,
  StepResult,
} from '../../src/features/scenarios/vocabulary.js';
import type { AccountsRepo } from '../../src/features/accounts/ports.js';
import type { ChangeFeed, UnitOfWork } from '../../src/core/domain/ports.js';
import type { SubscriptionsRepo } from '../../src/features/subscriptions/ports.js';
import type { Outbox, TransactionsRepo } from '../../src/features/transactions/ports.js';

export function fakeClock(startMs = Date.UTC(2026, 10, 22, 10)): Clock & { set(ms: number): void } {
  let now = startMs;
  return {
    nowMs: () => now,
    latestMs: () => now,
    now: () => new Date(now),
    offsetMs: () => 0,
    moveTo: (ms) => void (now = Math.max(now, ms)),
    restoreOffset: () => undefined,
    account: () => null,
    inAccount: (_accountId, work) => work(),
    movingAccount: (_accountId, work) => work(),
    onSandboxClock: (work) => work(),
    set: (ms) => void (now = ms),
  };
}

export function fakeUnitOfWork(): UnitOfWork & { depth(): number } {
  const levels: (() => void)[][] = [];
  const uow: UnitOfWork & { depth(): number } = {
    depth: () => levels.length,
    run(work) {
      levels.push([]);
      let effects: (() => void)[];
      let result;
      try {
        result = work();
      } finally {
        effects = levels.pop()!;
      }
      if (levels.length > 0) levels[levels.length - 1]!.push(...effects);
      else for (const effect of effects) effect();
      return result;
    },
    join(work) {
      return levels.length > 0 ? work() : uow.run(work);
    },
    afterCommit(effect) {
      if (levels.length === 0) effect();
      else levels[levels.length - 1]!.push(effect);
    },
  };
  return uow;
}

export function fakeTransactions(): TransactionsRepo & { rows: Transaction[]; refunds: Refund[] } {
  const rows: Transaction[] = [];
  const refunds: Refund[] = [];
  const find = (id: string) => rows.find((t) => t.id === id);
  return {
    rows,
    refunds,
    insert: (tx) => rows.push({ ...tx, seq: rows.length + 1 }), // the new length: its seq
    byId: (accountId, id) => rows.find((t) => t.id === id && t.account_id === accountId),
    byIdAnyAccount: (id) => (find(id) ? { ...find(id)! } : undefined),
    page: () => ({ rows: [...rows].reverse(), nextKey: null, previousKey: null }),
    setStatus: (id, status, at) => void Object.assign(find(id)!, { status, updated_at: at, resolved_at: at }),
    addRefunded: (id, amount, at) => {
      const tx = find(id)!;
      tx.refunded_amount += amount;
      tx.updated_at = at;
    },
    forSubscription: (id) => rows.filter((t) => t.subscription_id === id),
    setScenarioRule: (id, rule) => void (find(id)!.scenario_rule = rule),
    setDeclineReason: (id, reason) => void (find(id)!.decline_reason = reason),
    setPaymentMethod: (id, paymentMethod) => void (find(id)!.payment_method = paymentMethod),
    nextLinkExpiry: () => {
      const due = rows.filter((t) => t.status === 'PENDING' && t.link_expires_at !== null).map((t) => t.link_expires_at!);
      return due.length === 0 ? null : Math.min(...due);
    },
    linksExpiredAt: (nowMs) =>
      rows
        .filter((t) => t.status === 'PENDING' && t.link_expires_at !== null && t.link_expires_at <= nowMs)
        .sort((a, b) => a.link_expires_at! - b.link_expires_at!),
    clearLinkExpiry: (id) => void (find(id)!.link_expires_at = null),
    insertRefund: (refund) => void refunds.push({ ...refund, seq: refunds.length + 1 }),
    refundById: (id) => refunds.find((r) => r.id === id),
    refundsOf: (id) => refunds.filter((r) => r.transaction_id === id).reverse(),
    refundsPage: (id) => ({ rows: refunds.filter((r) => r.transaction_id === id).reverse(), nextKey: null, previousKey: null }),
  };
}

export function fakeScheduledSteps(): ScheduledStepsRepo & { steps: (ScheduledStep & { done: StepResult | 'waiting' })[] } {
  const steps: (ScheduledStep & { done: StepResult | 'waiting' })[] = [];
  return {
    steps,
    insert: (step) => void steps.push({ ...step, seq: steps.length + 1, done: 'waiting' }),
    due: (nowMs) => steps.filter((s) => s.done === 'waiting' && s.due_at <= nowMs).sort((a, b) => a.due_at - b.due_at || a.seq - b.seq),
    nextDue: () => Math.min(...steps.filter((s) => s.done === 'waiting').map((s) => s.due_at)) || null,
    finish: (seq, result) => void (steps.find((s) => s.seq === seq)!.done = result),
    forResource: (id) => steps.filter((s) => s.resource_id === id),
  };
}

export interface QueuedWebhook {
  kind: 'payment' | 'refund';
  id: string;
  status?: string;
  simulated?: SimulatedFailures;
}

export function fakeOutbox(): Outbox & { queued: QueuedWebhook[] } {
  const queued: QueuedWebhook[] = [];
  return {
    queued,
    paymentOutcome: (tx, simulated) => void queued.push({ kind: 'payment', id: tx.id, status: tx.status, simulated }),
    refund: (_tx, refund, simulated) => void queued.push({ kind: 'refund', id: refund.id, simulated }),
  };
}

export function fakeFeed(uow: UnitOfWork): ChangeFeed & { published: { type: string; data: unknown }[] } {
  const published: { type: string; data: unknown }[] = [];
  return { published, emit: (type, _account, data) => uow.afterCommit(() => published.push({ type, data })) };
}

/** A policy that scripts `script` for every new transaction (rule `fake/rule`), or nothing. */
export function fakePolicy(script: ChargeScript | null = null, failures?: SimulatedFailures): ScenarioPolicy {
  return {
    forTransaction: () => (script ? { rule: 'fake/rule', script } : null),
    forSubscription: () => null,
    firstChargeScript: () => ({ outcome: 'SUCCEEDED', afterSeconds: 0, refunds: [] }),
    renewalScript: () => ({ outcome: 'SUCCEEDED', afterSeconds: 0, refunds: [] }),
    simulatedFailures: (label) => (label === 'fake/rule' ? failures : undefined),
  };
}

/** A stored account as the domain sees it (no JWT keys), named after its id. */
export function accountEntity(id: string, mode: Account['mode'] = 'direct'): Account {
  return {
    id,
    name: id,
    mode,
    api_key: `sk_test_${id}`,
    jwt_kid: `kid_${id}`,
    jwt_private_key_pem: '',
    jwt_public_key_pem: '',
    created_at: 0,
  };
}

/** A stored transaction as the domain sees it: a PENDING 10.50 USD payment of `acc_a`, with `overrides`. */
export function transactionEntity(overrides: Partial<Transaction> = {}): Transaction {
  return {
    seq: 1,
    id: 'tx_1',
    account_id: 'acc_a',
    status: 'PENDING',
    amount: 1050,
    currency: 'USD',
    description: null,
    customer: null,
    return_url: null,
    cancel_url: null,
    external_identifier: null,
    notification_url: null,
    metadata: { order: '7' },
    payment_method: null,
    browser_info: null,
    refunded_amount: 0,
    subscription_id: null,
    scenario_rule: null,
    decline_reason: null,
    link_expires_at: null,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    resolved_at: null,
    ...overrides,
  };
}

export function fakeSubscriptions(): SubscriptionsRepo & { rows: Subscription[] } {
  const rows: Subscription[] = [];
  const find = (id: string) => rows.find((s) => s.id === id);
  const charging = (s: Subscription) => (s.status === 'active' || s.status === 'past_due') && s.next_charge_at !== null;
  return {
    rows,
    insert: (sub) => void rows.push({ ...sub, seq: rows.length + 1 }),
    byId: (accountId, id) => rows.find((s) => s.id === id && s.account_id === accountId),
    byIdAnyAccount: (id) => (find(id) ? structuredClone(find(id)!) : undefined),
    byExternalIdentifier: (accountId, ref) => rows.find((s) => s.account_id === accountId && s.external_identifier === ref),
    page: (accountId) => ({ rows: rows.filter((s) => s.account_id === accountId).reverse(), nextKey: null, previousKey: null }),
    pageAll: () => ({ rows: [...rows].reverse(), nextKey: null, previousKey: null }),
    due: (nowMs) =>
      rows
        .filter((s) => charging(s) && s.next_charge_at! <= nowMs)
        .sort((a, b) => a.next_charge_at! - b.next_charge_at!)
        .map((s) => structuredClone(s)),
    nextDue: () => {
      const due = rows.filter(charging).map((s) => s.next_charge_at!);
      return due.length === 0 ? null : Math.min(...due);
    },
    update: (id, fields) => void Object.assign(find(id)!, structuredClone(fields)),
  };
}

export function fakeAccounts(...accounts: Account[]): AccountsRepo {
  return {
    insert: (account) => void accounts.push(account),
    byId: (id) => accounts.find((a) => a.id === id),
    byApiKey: (key) => accounts.find((a) => a.api_key === key),
    byKid: (kid) => accounts.find((a) => a.jwt_kid === kid),
    all: () => [...accounts],
    count: () => accounts.length,
  };
}

/** Idempotency keys in memory (`core/http/ports.ts` `IdempotencyRepo`). */
export function fakeIdempotencyRecords(): IdempotencyRepo {
  const rows = new Map<string, IdempotencyRecord>();
  const id = (accountId: string, key: string) => `${accountId}\n${key}`;
  return {
    get: (accountId, key) => rows.get(id(accountId, key)),
    claim: (accountId, key, fingerprint, at) =>
      void rows.set(id(accountId, key), {
        account_id: accountId,
        key,
        fingerprint,
        state: 'processing',
        response_status: null,
        response_body: null,
        created_at: at,
      }),
    complete: (accountId, key, status, body) =>
      void Object.assign(rows.get(id(accountId, key))!, { state: 'done', response_status: status, response_body: body }),
    release: (accountId, key) => void rows.delete(id(accountId, key)),
    record: (accountId, key, fingerprint, at, status, body) =>
      void rows.set(id(accountId, key), {
        account_id: accountId,
        key,
        fingerprint,
        state: 'done',
        response_status: status,
        response_body: body,
        created_at: at,
      }),
    deleteExpired: () => 0,
    hasKeys: () => rows.size > 0,
  };
}
