/**
 * An account as the core knows it: who a /v4 request is (auth sets it on the context) and the
 * keys its tokens are checked with. The accounts feature keeps accounts and answers the
 * core's lookups (`AccountDirectory`); its own record has more than this.
 */

/** How an account's payments take the customer's step: on the merchant's page or on the sandbox's. */
export type AccountMode = 'direct' | 'checkout';

export interface AccountIdentity {
  id: string;
  name: string;
  mode: AccountMode;
  /** The account's API key (a bearer secret). */
  api_key: string;
  /** The key id of its JWTs, and the public key they are verified with. */
  jwt_kid: string;
  jwt_public_key_pem: string;
}

/** The core's lookups of accounts (authentication, `--max-accounts`, the control routes' 404). */
export interface AccountDirectory {
  byId(id: string): AccountIdentity | undefined;
  byApiKey(key: string): AccountIdentity | undefined;
  byKid(kid: string): AccountIdentity | undefined;
  /** How many accounts there are. */
  count(): number;
}
