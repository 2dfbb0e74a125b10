/**
 * The core's ports, as small interfaces: the unit of work and the change feed, keyset pages,
 * and the webhook deliveries the dispatcher works through (`webhooks/deliveries-store.ts`).
 * Each feature declares the ports of its own records in its own folder.
 */
import type { Delivery, DeliveryAttempt } from './entities.js';
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
  /** The pending deliveries without a URL that wait for a retry, of `accountId` (null: of every account), oldest first. */
  waitingWithoutUrl(accountId: string | null): Pick<Delivery, 'id' | 'account_id'>[];
  setSignature(id: string, signature: string): void;
  attemptsOf(deliveryId: string): DeliveryAttempt[];
  /** The newest delivery signed with one of `signatures`, else the newest whose body is `body` (explaining a failed check). */
  matching(signatures: string[], body: string): Delivery | undefined;
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
