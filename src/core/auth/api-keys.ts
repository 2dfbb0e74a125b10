/**
 * Restricted API keys. An
 * account's own `sk_test_` key grants every scope; a restricted key is a further `sk_test_`
 * key of the same account that grants only the scopes it was minted with. The secret is shown
 * once, when the key is minted (as Stripe does): only its SHA-256 and its last four
 * characters are stored, so a list shows `sk_test_rk_…abcd`. Revoking deletes the key; the
 * secret is then a 401 like any unknown key. Keys are credentials: a reset keeps them, as it
 * keeps the accounts; a `--db` file keeps them across restarts.
 *
 * The scope names are the HTTP layer's (`http/auth.ts` `SCOPES`); here they are strings.
 */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { AccountDirectory, AccountIdentity } from './account.js';
import { SandboxError, notFound } from '../domain/errors.js';
import type { ChangeFeed, UnitOfWork } from '../domain/ports.js';

/** A restricted key as stored: never the secret itself. */
export interface ApiKey {
  id: string;
  account_id: string;
  /** What the merchant called it (the panel's label), or null. */
  name: string | null;
  scopes: string[];
  /** SHA-256 (hex) of the secret: how a bearer token finds its key. */
  secret_hash: string;
  /** The secret's last four characters, for telling keys apart. */
  secret_last4: string;
  created_at: number;
}

/** The `api_keys` table (implemented in `api-keys-store.ts`). */
export interface ApiKeysRepo {
  insert(key: ApiKey): void;
  /** An account's keys, oldest first. */
  forAccount(accountId: string): ApiKey[];
  bySecretHash(hash: string): ApiKey | undefined;
  /** Deletes the account's key; false when it has none with this id. */
  remove(accountId: string, id: string): boolean;
  byId(accountId: string, id: string): ApiKey | undefined;
}

/** Every restricted key's secret starts with this (an `sk_test_` key, marked restricted). */
export const RESTRICTED_KEY_PREFIX = 'sk_test_rk_';

/** Most keys one account can hold, so a runaway script cannot fill the database. */
export const MAX_KEYS_PER_ACCOUNT = 100;

/** The secret's redacted form, as lists show it. */
export function redactedSecret(key: Pick<ApiKey, 'secret_last4'>): string {
  return `${RESTRICTED_KEY_PREFIX}…${key.secret_last4}`;
}

const hashOf = (secret: string): string => hash('sha256', secret);

export interface ApiKeyServiceDeps {
  nowMs: () => number;
  uow: UnitOfWork;
  apiKeys: ApiKeysRepo;
  accounts: Pick<AccountDirectory, 'byId'>;
  feed: ChangeFeed;
}

export interface ApiKeyService {
  /**
   * Mints a restricted key for an account; the answer holds its secret, which is never shown
   * again. 404 for an unknown account; 409 `limit_reached` beyond `MAX_KEYS_PER_ACCOUNT`.
   * `scopes` are checked by the caller (the HTTP schema); duplicates are dropped.
   */
  create(accountId: string, scopes: readonly string[], name?: string): { key: ApiKey; secret: string };
  /** An account's keys, oldest first (404 for an unknown account). */
  list(accountId: string): ApiKey[];
  /** Revokes (deletes) a key: its secret is a 401 from now on. 404 when the account has no such key. */
  revoke(accountId: string, keyId: string): ApiKey;
  /** The account and scopes of a restricted key's secret, or undefined. */
  authenticate(secret: string): { account: AccountIdentity; key: ApiKey } | undefined;
}

export function createApiKeyService(deps: ApiKeyServiceDeps): ApiKeyService {
  const { uow, apiKeys, accounts, feed } = deps;
  const accountOf = (accountId: string): AccountIdentity => {
    const account = accounts.byId(accountId);
    if (!account) throw notFound(`Account ${accountId} not found`);
    return account;
  };
  return {
    create(accountId, scopes, name) {
      return uow.run(() => {
        accountOf(accountId);
        if (apiKeys.forAccount(accountId).length >= MAX_KEYS_PER_ACCOUNT) {
          throw new SandboxError(
            409,
            'limit_reached',
            `Account ${accountId} already has ${MAX_KEYS_PER_ACCOUNT} restricted keys: revoke one first`,
          );
        }
        const secret = `${RESTRICTED_KEY_PREFIX}${randomBytes(20).toString('hex')}`;
        const key: ApiKey = {
          id: randomUUID(),
          account_id: accountId,
          name: name ?? null,
          scopes: [...new Set(scopes)],
          secret_hash: hashOf(secret),
          secret_last4: secret.slice(-4),
          created_at: deps.nowMs(),
        };
        apiKeys.insert(key);
        feed.emit('api_key.created', accountId, { id: key.id });
        return { key, secret };
      });
    },
    list(accountId) {
      accountOf(accountId);
      return apiKeys.forAccount(accountId);
    },
    revoke(accountId, keyId) {
      return uow.run(() => {
        accountOf(accountId);
        const key = apiKeys.byId(accountId, keyId);
        if (!key || !apiKeys.remove(accountId, keyId)) throw notFound(`Account ${accountId} has no API key ${keyId}`);
        feed.emit('api_key.revoked', accountId, { id: keyId });
        return key;
      });
    },
    authenticate(secret) {
      if (!secret.startsWith(RESTRICTED_KEY_PREFIX)) return undefined;
      const key = apiKeys.bySecretHash(hashOf(secret));
      const account = key ? accounts.byId(key.account_id) : undefined;
      return key && account ? { account, key } : undefined;
    },
  };
}
