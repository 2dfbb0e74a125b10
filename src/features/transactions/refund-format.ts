/**
 * A refund as the API answers it, typed from its response schema; the `refund.completed` event
 * body carries the same record (`webhook-bodies.ts`).
 */
import type { z } from '@hono/zod-openapi';
import type { Refund } from './entities.js';
import { isoTimestamp } from '../../core/clock/clock.js';
import type { refundSchema } from './transactions.schemas.js';

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
