/** The wire format of a refund (typed from its response schema). */
import type { z } from '@hono/zod-openapi';
import { isoTimestamp } from '../../domain/clock.js';
import type { Refund } from '../../domain/entities.js';
import type { refundSchema } from '../routes/transactions.schemas.js';

export type RefundResponse = z.infer<typeof refundSchema>;

export function refundView(refund: Refund): RefundResponse {
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
