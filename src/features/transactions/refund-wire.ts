/**
 * The wire format of a refund record, in one place: the API's answers
 * (`http/formatters/refund.ts`) and the `refund.completed` event body (`webhooks/formats.ts`).
 */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { Refund } from '../../core/domain/entities.js';

/** A refund as the API shows it. */
export interface RefundRecord {
  type: 'refund';
  id: string;
  transaction_id: string;
  status: Refund['status'];
  amount: number;
  currency: string;
  reason: string | null;
  external_identifier: string | null;
  created_at: string;
  updated_at: string;
}

export function refundRecord(refund: Refund): RefundRecord {
  return {
    type: 'refund',
    id: refund.id,
    transaction_id: refund.transaction_id,
    status: refund.status,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason,
    external_identifier: refund.external_identifier,
    created_at: isoTimestamp(refund.created_at),
    updated_at: isoTimestamp(refund.updated_at),
  };
}
