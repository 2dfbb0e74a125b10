/** The buyers' storage (`buyers-store.ts` implements it) and its read half. */
import type { Page, PageRequest } from '../../core/domain/ports.js';
import type { Buyer } from './entities.js';

/** Filters of the buyer list, as the borrowed API has them (both optional, both must hold). */
export interface BuyerFilters {
  /** Buyers whose display_name or external_identifier contains this, ignoring letter case. */
  search?: string;
  /** Buyers with exactly this external_identifier. */
  external_identifier?: string;
}

export interface BuyersRepo {
  insert(buyer: Omit<Buyer, 'seq'>): void;
  page(accountId: string, req: PageRequest, filters?: BuyerFilters): Page<Buyer>;
  count(accountId: string): number;
}

/** The read half of the buyers' storage: the buyer list. */
export type BuyerQueries = Pick<BuyersRepo, 'page' | 'count'>;
