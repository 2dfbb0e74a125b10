/**
 * What the domain needs from the outside, as small interfaces: storage (implemented in
 * `store/`), the webhook outbox (`webhooks/`), the scenario policy (`scenarios/`), the unit of
 * work and the change feed. The composition root (`compose.ts`) plugs the implementations in;
 * the domain imports none of them.
 */
import type {
  Account,
  Buyer,
  DeclineReason,
  Delivery,
  DeliveryAttempt,
  Refund,
  RuleSnapshot,
  ScheduledStep,
  SimulatedFailures,
  StoredPaymentMethod,
  Subscription,
  Transaction,
  TransactionOutcome,
  TransactionStatus,
} from './entities.js';
import type { ChangeType } from './events.js';

// --- units of work and the change feed ---

/**
 * One database transaction around a piece of domain work. Nested `run`s join the outer one
 * (and roll back on their own when they throw). Effects registered with `afterCommit` run
 * once the outermost transaction has committed, in the order they were registered; they are
 * dropped when the work they belong to rolls back. Outside `run`, an effect runs at once.
 */
export interface UnitOfWork {
  run<T>(work: () => T): T;
  /**
   * Runs `work` as part of the unit of work already open, with no savepoint of its own (a
   * throw rolls the whole unit back), or as `run` when none is open. For work whose caller
   * never catches its failure to carry on in the same unit.
   */
  join<T>(work: () => T): T;
  /** `key`: an effect already queued under the same key is not queued again. */
  afterCommit(effect: () => void, key?: string): void;
}

/** Publishes a change (e.g. `transaction.updated`) once the work that made it has committed. */
export interface ChangeFeed {
  emit(type: ChangeType, accountId: string | null, data: unknown): void;
}

// --- pages ---

/** Which way a page runs from its key: `after` = older than key (next), `before` = newer (previous). */
export interface PageRequest {
  limit: number;
  direction?: 'after' | 'before';
  key?: number;
}

export interface Page<T> {
  rows: T[];
  /** seq of the last row when older rows exist. */
  nextKey: number | null;
  /** seq of the first row when newer rows exist. */
  previousKey: number | null;
}

// --- storage ---

export interface AccountsRepo {
  insert(account: Account): void;
  byId(id: string): Account | undefined;
  byApiKey(key: string): Account | undefined;
  byKid(kid: string): Account | undefined;
  all(): Account[];
  /** How many accounts there are. */
  count(): number;
}

/** Filters of the buyer list, as the borrowed API has them (both optional, both must hold). */
export interface BuyerFilters {
  /** Buyers whose display_name or external_identifier contains this, ignoring letter case. */
  search?: string;
  /** Buyers with exactly this external_identifier. */
  external_identifier?: string;
}

export interface BuyersRepo {
  insert(buyer: Omit<Buyer, 'seq'>): void;
  page(accountId: string, req: PageRequest, filters?: BuyerFilters): Page<Buyer>;
  count(accountId: string): number;
}

export interface TransactionsRepo {
  /** Stores a new transaction; returns its `seq`. */
  insert(tx: Omit<Transaction, 'seq'>): number;
  /** The transaction of that account, or undefined (another account's is not found). */
  byId(accountId: string, id: string): Transaction | undefined;
  /** Any account's transaction (control API, payment page). */
  byIdAnyAccount(id: string): Transaction | undefined;
  page(accountId: string, req: PageRequest): Page<Transaction>;
  setStatus(id: string, status: TransactionStatus, at: number): void;
  addRefunded(id: string, amount: number, at: number): void;
  forSubscription(subscriptionId: string): Transaction[];
  /** Records which scenario rule decides the transaction (`scenario/rule`). */
  setScenarioRule(id: string, rule: string): void;
  /** Records why a payment was declined. */
  setDeclineReason(id: string, reason: DeclineReason): void;
  /** Records the (masked) payment method the customer paid with on the payment page. */
  setPaymentMethod(id: string, paymentMethod: StoredPaymentMethod): void;
  /** The earliest `link_expires_at` of a PENDING transaction, or null. */
  nextLinkExpiry(): number | null;
  /** PENDING transactions whose payment link expires at or before `nowMs`, earliest first. */
  linksExpiredAt(nowMs: number): Transaction[];
  /** Forgets a transaction's link expiry (it is no longer swept). */
  clearLinkExpiry(id: string): void;
  insertRefund(refund: Omit<Refund, 'seq'>): void;
  refundById(id: string): Refund | undefined;
  refundsOf(transactionId: string): Refund[];
  /** A keyset page of a transaction's refunds, newest first. */
  refundsPage(transactionId: string, req: PageRequest): Page<Refund>;
}

export interface SubscriptionsRepo {
  insert(subscription: Omit<Subscription, 'seq'>): void;
  byId(accountId: string, id: string): Subscription | undefined;
  byIdAnyAccount(id: string): Subscription | undefined;
  byExternalIdentifier(accountId: string, externalIdentifier: string): Subscription | undefined;
  page(accountId: string, req: PageRequest): Page<Subscription>;
  pageAll(req: PageRequest): Page<Subscription>;
  /** Active or past_due subscriptions whose next charge is due at or before `nowMs`, earliest first. */
  due(nowMs: number): Subscription[];
  /** The earliest `next_charge_at` of an active or past_due subscription. */
  nextDue(): number | null;
  update(id: string, fields: Pick<Subscription, 'status' | 'state' | 'next_charge_at' | 'updated_at'>): void;
}

export type StepResult = 'applied' | 'skipped';

export interface ScheduledStepsRepo {
  insert(step: Omit<ScheduledStep, 'seq'>): void;
  /** Waiting steps due at or before `nowMs`, in time order (ties: insertion order). */
  due(nowMs: number): ScheduledStep[];
  /** The earliest `due_at` of a waiting step. */
  nextDue(): number | null;
  finish(seq: number, result: StepResult): void;
  forResource(resourceId: string): (ScheduledStep & { done: StepResult | 'waiting' })[];
}

export type DeliveryProgress = Pick<Delivery, 'status' | 'attempts' | 'next_attempt_at' | 'delivered_at' | 'updated_at'>;

/** A pending delivery as a pass over due deliveries reads it: everything but its body and signature (read again when it is attempted). */
export type DueDelivery = Omit<Delivery, 'body' | 'signature'>;

export interface DeliveriesRepo {
  insert(delivery: Omit<Delivery, 'seq'>): void;
  /** Whether a webhook canary was ever sent to `url` for `accountId` (and is still in the delivery log). */
  hasCanary(accountId: string, url: string): boolean;
  byId(id: string): Delivery | undefined;
  /** Pending deliveries due at or before `nowMs`, oldest first. */
  due(nowMs: number): DueDelivery[];
  /**
   * The ids of `due(nowMs)`, in the same order, but of a queue (`Delivery.order_key`) only its
   * head, the earliest queued that may be attempted: a full pass reads no row that must wait.
   */
  dueHeadIds(nowMs: number): string[];
  /** Pending deliveries due from `fromMs` to `nowMs` (both included), oldest first: what became due since a pass at `fromMs`. */
  dueBetween(fromMs: number, nowMs: number): DueDelivery[];
  nextDue(): number | null;
  /** Pending deliveries whose next attempt is strictly after `afterMs`, earliest first (read lazily: stop when done). */
  pendingAfter(afterMs: number): Iterable<Pick<Delivery, 'id' | 'next_attempt_at'>>;
  page(accountId: string, req: PageRequest): Page<Delivery>;
  pageAll(req: PageRequest): Page<Delivery>;
  forResource(resourceId: string): Delivery[];
  /** The pending deliveries of one queue (`Delivery.order_key`), earliest queued first. */
  pendingInOrder(orderKey: string): DueDelivery[];
  /** The earliest-queued pending delivery of one queue that may be attempted (not parked, not a bad-signature copy). */
  headInOrder(orderKey: string): DueDelivery | undefined;
  recordAttempt(attempt: Omit<DeliveryAttempt, 'seq'>, progress: DeliveryProgress): void;
  requeue(id: string, nowMs: number): void;
  /** Moves a pending delivery's next attempt to `atMs` (it waits for an earlier one of its transaction). */
  postpone(id: string, atMs: number): void;
  setSignature(id: string, signature: string): void;
  attemptsOf(deliveryId: string): DeliveryAttempt[];
  /** The newest delivery signed with one of `signatures`, else the newest whose body is `body` (explaining a failed check). */
  matching(signatures: string[], body: string): Delivery | undefined;
}

/** Every repository, as the composition root builds them over one database. */
export interface Repositories {
  accounts: AccountsRepo;
  buyers: BuyersRepo;
  transactions: TransactionsRepo;
  subscriptions: SubscriptionsRepo;
  scheduledSteps: ScheduledStepsRepo;
  deliveries: DeliveriesRepo;
}

// --- webhooks ---

/** A webhook attempt as the dispatcher reports it once recorded (the go-live report hears of each). */
export interface RecordedAttempt<D = Delivery> {
  delivery: D;
  number: number;
  ok: boolean;
  status: number | null;
  contacted: boolean;
  timedOut: boolean;
  durationMs: number;
}

/** Queues webhooks inside the caller's unit of work, so no outcome is stored without its webhook. */
export interface Outbox {
  /** The payment webhook of a transaction that has just reached SUCCEEDED or FAILED. */
  paymentOutcome(tx: Transaction, simulated?: SimulatedFailures): void;
  /** The refund webhook (outcome SUCCESS) of a refund of `tx`. */
  refund(tx: Transaction, refund: Refund, simulated?: SimulatedFailures): void;
}

// --- scenarios ---

/** What a scenario rule can be matched on, taken from a create request. */
export interface MatchInput {
  kind: 'transaction' | 'subscription';
  /** In minor units. */
  amount: number;
  currency: string;
  /** Spaces and dashes are ignored. */
  cardNumber?: string | null;
  customerEmail?: string | null;
  metadata?: Record<string, string> | null;
  paymentChannelCode?: string | null;
  plan?: { name?: string; interval?: string } | null;
}

/** A refund a script asks for, `afterSeconds` after the script's outcome. */
export interface ScriptedRefund {
  amount?: number;
  reason?: string;
  afterSeconds: number;
}

/** What happens to one transaction: the plan a rule (or subscription billing) makes for it. */
export interface ChargeScript {
  /** The terminal status to set, or null to leave the transaction PENDING for a hand. */
  outcome: TransactionOutcome | null;
  /** Sandbox-clock seconds after now; 0 applies the outcome at once. */
  afterSeconds: number;
  refunds: ScriptedRefund[];
  /** Simulated delivery failures of each webhook about the transaction and its refunds. */
  webhookFailures?: SimulatedFailures;
}

/**
 * The scenario rules as the domain asks them: pure decisions, no clock and no storage.
 * The steps they schedule are stored by the domain and played by the scenario runner.
 */
export interface ScenarioPolicy {
  /** The rule deciding a new (non-subscription) transaction and its script, or null. */
  forTransaction(input: MatchInput): { rule: string; script: ChargeScript } | null;
  /** The rule matched for a new subscription, kept with it for its renewals, or null. */
  forSubscription(input: MatchInput): RuleSnapshot | null;
  /** The script of a subscription's first charge (SUCCEEDED at once unless the rule says otherwise). */
  firstChargeScript(rule: RuleSnapshot | null): ChargeScript;
  /** The script of renewal `renewal` (1 = the first renewal), `attemptsBefore` renewal attempts into the subscription. */
  renewalScript(rule: RuleSnapshot | null, renewal: number, attemptsBefore: number): ChargeScript;
  /** The simulated webhook failures of the rule `label` names, for outcomes and refunds set by hand. */
  simulatedFailures(label: string | null): SimulatedFailures | undefined;
}
