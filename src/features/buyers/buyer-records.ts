/**
 * A buyer written by hand (a fixture), next to the ones `buyers.ts` generates: the same row,
 * with the display name and external identifier given, created now on the sandbox clock.
 */
import { randomUUID } from 'node:crypto';
import { withoutCardNumbers } from '../../core/redaction/card-data.js';
import type { Buyer } from './entities.js';

export interface NewBuyer {
  display_name?: string;
  external_identifier?: string;
}

/** The row of a new buyer of `accountId` at `nowMs`. */
export function newBuyer(accountId: string, input: NewBuyer, nowMs: number): Omit<Buyer, 'seq'> {
  return {
    id: randomUUID(),
    account_id: accountId,
    display_name: withoutCardNumbers(input.display_name ?? null),
    external_identifier: withoutCardNumbers(input.external_identifier ?? null),
    created_at: nowMs,
    updated_at: nowMs,
  };
}
