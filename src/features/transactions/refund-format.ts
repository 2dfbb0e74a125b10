/** A refund as the API answers it (typed from its response schema): the shared record of `wire/refund.ts`. */
import type { z } from '@hono/zod-openapi';
import type { Refund } from '../../core/domain/entities.js';
import { refundRecord } from './refund-wire.js';
import type { refundSchema } from './transactions.schemas.js';

export type RefundResponse = z.infer<typeof refundSchema>;

export function refundView(refund: Refund): RefundResponse {
  return refundRecord(refund);
}
