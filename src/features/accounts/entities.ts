/** A merchant account as the accounts feature keeps it (`accounts-store.ts`): the core's view of it and its private key. */
import type { AccountIdentity } from '../../core/auth/account.js';

export type { AccountMode } from '../../core/auth/account.js';

export interface Account extends AccountIdentity {
  /** Signs the account's JWTs (the demo credentials give it to the merchant). */
  jwt_private_key_pem: string;
  created_at: number;
}
