/**
 * What the go-live report hears (`go-live-tracker.ts`): a logged /v4 request as the HTTP layer
 * saw it, a webhook delivery attempt as the dispatcher made it, an outcome the domain reached;
 * and the thresholds of the windowed rules that read them.
 */
import type { DeliveryFault, DeliveryKind } from '../../core/domain/entities.js';

/** A logged /v4 request, as the HTTP layer saw it. */
export interface ObservedRequest {
  /** Its request-log id. */
  requestId: number;
  /** A known account (the authenticated one, or the one the header names); null: only `live_key_used` is read. */
  accountId: string | null;
  method: string;
  /** Without the query string. */
  path: string;
  /** The status the merchant received (0 or 504 when a fault lost the answer). */
  status: number;
  /** The status of the work itself, before a fault lost its answer. */
  executedStatus: number;
  idempotencyKey: string | null;
  replayed: boolean;
  /** It carried an `sk_live_` key. */
  liveKey: boolean;
  /** A checkout-mode account sent card data (a card number or a security code, under any field name). */
  cardDataInCheckout: boolean;
  /** A subscription create that ran carried a top-level `notification_url`, which subscriptions ignore. */
  ignoredWebhookField: boolean;
  /** It asked for a fault (`X-Sandbox-Fault`), or a scenario rule played one. */
  fault: boolean;
  /** The Retry-After seconds of its 429, if it got one. */
  retryAfterS: number | null;
  /** Which create it is, if one (counted only when it ran: `executedStatus` 2xx). */
  create: 'transaction' | 'refund' | 'subscription' | null;
  /** The transaction a create made (not a replay), with what identifies the order. */
  createdTransaction: { id: string; amount: number; currency: string; external_identifier: string | null } | null;
  /** The refund a create made (not a replay): the refunded transaction and the amount. */
  createdRefund: { id: string; transactionId: string; amount: number } | null;
  /**
   * Whether the answer reached the client, as known when the request was logged: false when a
   * fault after execution hid it or the connection was already closed. A loss learnt later
   * is told by `GoLiveTracker.undelivered`.
   */
  answerDelivered: boolean;
  /** The id of the transaction the request is about (refunds, reads), if any. */
  transactionId: string | null;
  /** It read one transaction that was PENDING. */
  readPending: boolean;
  /** Method, path and body (key order ignored), hashed; computed only when a rule needs it. */
  fingerprint: () => string;
  /**
   * When the request arrived, on its account's clock (ms): creates are judged in the order they
   * started, which a create held by a fault or latency does not log in.
   */
  atMs: number;
  /** Real time (ms): Retry-After is in real seconds. */
  realMs: number;
}

/** A webhook delivery attempt, as the dispatcher made it. */
export interface ObservedAttempt {
  accountId: string;
  deliveryId: string;
  kind: DeliveryKind;
  /** The transaction it is about (a refund's: the refunded one). */
  transactionId: string;
  fault: DeliveryFault | null;
  number: number;
  ok: boolean;
  /** The merchant's handler was called (not a simulated failure, not a refused or missing URL). */
  contacted: boolean;
  /** Its HTTP status, or null when it did not answer. */
  status: number | null;
  timedOut: boolean;
  durationMs: number;
  /** For a `duplicate` copy: whether the webhook it copies was acknowledged. */
  originalAcknowledged: boolean;
  /** A webhook canary (a `bad_signature` copy the sandbox sent on its own): never the merchant's missed or failed delivery. */
  canary: boolean;
}

/** An outcome the domain reached. */
export interface ObservedOutcome {
  accountId: string;
  transactionId: string;
  status: 'SUCCEEDED' | 'FAILED';
  /** No notification URL to send its webhook to. */
  noTarget: boolean;
  /** A subscription's charge (its webhook URL is `payment_method.webhooks_url`). */
  subscription: boolean;
  /** It failed because its payment link expired. */
  linkExpired: boolean;
  /** A subscription's renewal charge (not its first). */
  renewal: boolean;
  /** When it was reached, on its account's clock (ms). */
  atMs: number;
}

/** How long two creates of one order (or a create after one whose answer was lost) count as a retry (sandbox clock). */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
/** How long two identical creates without any key count as a retry (sandbox clock). */
export const IDENTICAL_BODY_WINDOW_MS = 60 * 1000;
/**
 * How long after it started a create may still be heard: longer than any hold before its entry
 * is written (a `timeout=` fault holds at most 999 s, `--latency` at most 60 s).
 */
export const LATE_CREATE_MS = 20 * 60 * 1000;
/** Creates each intent keeps for the duplicate rules (the earliest dropped first). */
export const INTENT_CREATES_MAX = 16;
/** Attempts of one delivery without any HTTP answer that make its URL unreachable. */
export const UNREACHABLE_AT = 2;
/** How many times the same request answered 4xx is a finding. */
export const REPEATED_INVALID_AT = 3;
/** More GETs than this of one PENDING transaction is polling. */
export const POLLING_MORE_THAN = 10;
/** Entries each windowed tracker keeps per account (oldest dropped first). */
export const TRACKER_ENTRIES_MAX = 1000;
/** Transactions and subscriptions marked as not the merchant's kept per account (oldest dropped first). */
export const NOT_MERCHANTS_MAX = 5000;
