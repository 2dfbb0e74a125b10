/**
 * The customer's step, decided here
 * and nowhere else: which payments wait for the customer on the payment page, which show a
 * `payment_url`, and when their link has expired.
 */
import type { AccountMode } from '../../core/auth/account.js';
import { isPaymentLinkExpired, needsCustomerStep } from './payment-methods.js';

/** What the customer's step reads of a payment (the transactions' record has these fields). */
export interface PaymentOnItsPage {
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  link_expires_at: number | null;
  subscription_id: string | null;
  created_at: number;
  resolved_at: number | null;
}

/**
 * Whether a payment of an account in `mode` with this channel waits for the customer on its
 * payment page: every payment of a checkout account, and in direct mode a QR, wallet or
 * banking-app channel. A new payment and a subscription's first charge follow it; the
 * payment page exists for exactly these payments.
 */
export function awaitsCustomer(mode: AccountMode, channelCode: string | null | undefined): boolean {
  return mode === 'checkout' || needsCustomerStep(channelCode);
}

/**
 * Whether a stored transaction shows its payment page as `payment_url`: a payment given a
 * payment link when it was created (`awaitsCustomer` then, and not declined at once), and
 * every other payment of a checkout account except a subscription's charges made without
 * the customer (renewals never get one, in either mode).
 */
export function hasPaymentUrl(tx: Pick<PaymentOnItsPage, 'link_expires_at' | 'subscription_id'>, mode: AccountMode): boolean {
  return tx.link_expires_at !== null || (mode === 'checkout' && tx.subscription_id === null);
}

/** Whether a PENDING payment's link has expired at `nowMs` (24 h of sandbox clock after its creation). */
export function linkExpiredWhilePending(tx: Pick<PaymentOnItsPage, 'status' | 'created_at'>, nowMs: number): boolean {
  return tx.status === 'PENDING' && isPaymentLinkExpired(tx.created_at, nowMs);
}

/** Whether a payment failed because its link expired (on its page or by the clock's sweep). */
export function failedByExpiredLink(tx: Pick<PaymentOnItsPage, 'status' | 'created_at' | 'resolved_at'>): boolean {
  return tx.status === 'FAILED' && tx.resolved_at !== null && isPaymentLinkExpired(tx.created_at, tx.resolved_at);
}
