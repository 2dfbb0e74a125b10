/**
 * Merchant accounts: the two published demo accounts (fixed credentials, created on every
 * start if missing) and further accounts with fresh credentials (`POST /_sandbox/accounts`).
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { Account, AccountMode } from './entities.js';
import type { AccountsRepo } from './ports.js';
import { DEMO_ACCOUNTS } from './demo-credentials.js';

/** The credentials of an account as `GET /_sandbox/credentials` shows them. */
export interface AccountCredentials {
  name: string;
  mode: AccountMode;
  account_id: string;
  api_key: string;
  jwt_kid: string;
  jwt_private_key_pem: string;
}

export function credentialsOf(row: Account): AccountCredentials {
  return {
    name: row.name,
    mode: row.mode,
    account_id: row.id,
    api_key: row.api_key,
    jwt_kid: row.jwt_kid,
    jwt_private_key_pem: row.jwt_private_key_pem,
  };
}

/** Inserts the demo accounts that are missing; returns the ids inserted. */
export function ensureDemoAccounts(store: AccountsRepo, nowMs: number): string[] {
  const inserted: string[] = [];
  for (const demo of DEMO_ACCOUNTS) {
    if (store.byId(demo.account_id)) continue;
    store.insert({
      id: demo.account_id,
      name: demo.name,
      mode: demo.mode,
      api_key: demo.api_key,
      jwt_kid: demo.jwt_kid,
      jwt_private_key_pem: demo.jwt_private_key_pem,
      jwt_public_key_pem: demo.jwt_public_key_pem,
      created_at: nowMs,
    });
    inserted.push(demo.account_id);
  }
  return inserted;
}

/** A new isolated account with a fresh API key and RSA key pair. */
export function newAccount(mode: AccountMode, name: string | undefined, nowMs: number): Account {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const suffix = randomBytes(16).toString('hex');
  const id = `acc_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  return {
    id,
    name: name ?? `${mode}-${id.slice(4, 10)}`,
    mode,
    api_key: `sk_test_${suffix}`,
    jwt_kid: `kid_${randomBytes(8).toString('hex')}`,
    jwt_private_key_pem: privateKey,
    jwt_public_key_pem: publicKey,
    created_at: nowMs,
  };
}
