/** The wire format of a buyer (typed from its response schema). */
import { isoTimestamp } from '../../core/clock/clock.js';
import type { Buyer } from './entities.js';
import type { BuyerResponse } from './buyers.schemas.js';

export function buyerView(buyer: Buyer): BuyerResponse {
  return {
    type: 'buyer',
    id: buyer.id,
    merchant_account_id: buyer.account_id,
    display_name: buyer.display_name,
    external_identifier: buyer.external_identifier,
    created_at: isoTimestamp(buyer.created_at),
    updated_at: isoTimestamp(buyer.updated_at),
  };
}
