/**
 * What the dispatcher does differently for a scripted webhook fault (`Delivery.fault`).
 * `duplicate` and `delayed` copies are ordinary deliveries here (the outbox queued them so).
 * A `bad_signature` copy is signed over another body, goes outside its transaction's order
 * and is attempted once, with a verdict on the merchant's answer; an `out_of_order` payment
 * webhook is parked (no `next_attempt_at`) until a refund webhook of its transaction has been
 * attempted (`WebhookOrder.releaseParked`).
 */
import type { Delivery } from '../domain/entities.js';
import { MAX_ATTEMPTS } from './retries.js';

type FaultOf = Pick<Delivery, 'fault'>;

/** A scripted bad-signature copy: outside its transaction's order, attempted once. */
export function isBadSignature(row: FaultOf): boolean {
  return row.fault === 'bad_signature';
}

/** What a delivery's signature covers: its body; a scripted bad signature is a real signature of another body, so it never verifies. */
export function signedBody(row: Pick<Delivery, 'fault' | 'body'>): string {
  return isBadSignature(row) ? `${row.body}\n` : row.body;
}

/** After a failed attempt `number`: whether the delivery is given up (`failed`) rather than retried. */
export function givesUp(row: FaultOf, number: number, ok: boolean): boolean {
  return !ok && (number >= MAX_ATTEMPTS || isBadSignature(row));
}

/**
 * The recorded error of a bad-signature copy the merchant answered (`status` not null): it
 * must refuse it. Any other delivery keeps the error it had.
 */
export function faultVerdict(row: FaultOf, outcome: { ok: boolean; status: number | null; error: string | null }): string | null {
  if (!isBadSignature(row) || outcome.status === null) return outcome.error;
  return outcome.ok
    ? 'scripted bad signature: the merchant acknowledged a webhook whose signature does not match its body (it must refuse it)'
    : `scripted bad signature: refused by the merchant (HTTP ${outcome.status}), as it should be; not retried`;
}

/** After this delivery's attempt, its transaction's parked (`out_of_order`) deliveries are due: a refund webhook's, not a bad-signature copy's. */
export function releasesParked(row: Pick<Delivery, 'fault' | 'kind'>): boolean {
  return row.kind === 'refund' && !isBadSignature(row);
}
