/**
 * The core's own records: the webhook deliveries the dispatcher works through, their
 * attempts, and the faults and simulated failures a delivery can play (each feature keeps its
 * own records in its folder). Typed, with every JSON column already parsed by the store
 * (`webhooks/deliveries-store.ts`). Times are epoch milliseconds on the sandbox clock; `seq` is
 * the insertion order that cursor pages run on.
 */

export type DeliveryKind = 'payment' | 'refund';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A webhook in the outbox. */
export interface Delivery {
  seq: number;
  id: string;
  account_id: string;
  kind: DeliveryKind;
  /** The transaction or refund the webhook is about. */
  resource_id: string;
  url: string | null;
  /** The exact raw body sent on every attempt. */
  body: string;
  /** The body's signature, made once at the first attempt (it depends on the body alone). */
  signature: string | null;
  status: DeliveryStatus;
  attempts: number;
  simulated_failures: number;
  simulated_failure_status: number;
  /**
   * A scripted webhook fault this delivery plays (null for an ordinary one): a `duplicate`
   * copy, a `delayed` one, a copy with a `bad_signature` (attempted once, outside the
   * transaction's order) or part of an `out_of_order` pair. A pending delivery with no
   * `next_attempt_at` is parked until a later one of its transaction has been attempted.
   */
  fault: DeliveryFault | null;
  /**
   * The queue this webhook is delivered in, one at a time in the order queued, when it is wider
   * than its transaction: every webhook of one subscription's charges (and their refunds) to one
   * URL. Null (or absent): its transaction's own.
   */
  order_key?: string | null;
  /**
   * 1 for a webhook canary (`--webhook-canary`): a `bad_signature` copy the sandbox sent on its
   * own, once per URL of an account, after the first delivery that URL acknowledged; 0 (or
   * absent) for every other delivery.
   */
  canary?: 0 | 1;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface DeliveryAttempt {
  seq: number;
  delivery_id: string;
  number: number;
  at: number;
  url: string | null;
  request_headers: Record<string, string>;
  // The body every attempt sent is the delivery's own `body`, stored once.
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  ok: boolean;
}

/** The webhook faults a scenario rule, the control API or the panel can script (one list for all of them). */
export const DELIVERY_FAULTS = ['duplicate', 'out_of_order', 'delayed', 'bad_signature'] as const;
export type DeliveryFault = (typeof DELIVERY_FAULTS)[number];

export interface SimulatedFailures {
  count: number;
  status: number;
}
