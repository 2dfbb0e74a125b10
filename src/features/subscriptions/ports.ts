/** The subscriptions' storage (`subscriptions-store.ts` implements it) and its read half. */
import type { Page, PageRequest } from '../../core/domain/ports.js';
import type { Subscription } from './entities.js';

/** The `subscriptions` table. */
export interface SubscriptionsRepo {
  insert(subscription: Omit<Subscription, 'seq'>): void;
  byId(accountId: string, id: string): Subscription | undefined;
  byIdAnyAccount(id: string): Subscription | undefined;
  byExternalIdentifier(accountId: string, externalIdentifier: string): Subscription | undefined;
  page(accountId: string, req: PageRequest): Page<Subscription>;
  pageAll(req: PageRequest): Page<Subscription>;
  /** Active or past_due subscriptions whose next charge is due at or before `nowMs`, earliest first. */
  due(nowMs: number): Subscription[];
  /** The earliest `next_charge_at` of an active or past_due subscription. */
  nextDue(): number | null;
  update(id: string, fields: Pick<Subscription, 'status' | 'state' | 'next_charge_at' | 'updated_at'>): void;
}

/** The read half of the subscriptions' storage (no write method): what routes and views read. */
export type SubscriptionQueries = Pick<SubscriptionsRepo, 'byId' | 'byIdAnyAccount' | 'byExternalIdentifier' | 'page' | 'pageAll'>;
