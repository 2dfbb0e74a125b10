/**
 * Merchant accounts: the two published demo accounts (fixed credentials, created on every
 * start if missing) and further accounts with fresh credentials (`POST /_sandbox/accounts`).
 * Fresh RSA key pairs are made by OpenSSL on libuv's thread pool (async `generateKeyPair`),
 * never on the main thread; a `KeyPool` keeps some made ahead of time (`--key-pool`).
 */
import { generateKeyPair, randomBytes, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Account } from './entities.js';
import type { AccountMode } from '../../core/auth/account.js';
import type { AccountsRepo } from './ports.js';
import { DEMO_ACCOUNTS } from '../../core/credentials/demo-credentials.js';

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

/** A 2048-bit RSA key pair in PEM (SPKI public, PKCS#8 private). */
export interface PemKeyPair {
  privateKey: string;
  publicKey: string;
}

function generateRsaKeyPair(): Promise<PemKeyPair> {
  return new Promise((resolve, reject) => {
    generateKeyPair(
      'rsa',
      { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } },
      (err, publicKey, privateKey) => (err ? reject(err) : resolve({ privateKey, publicKey })),
    );
  });
}

/** How full a key pool is: `ready` keys waiting, of `size` wanted. */
export interface KeyPoolLevel {
  size: number;
  ready: number;
}

/**
 * Fresh account key pairs, some made ahead of time. `take()` hands out a waiting key (each
 * key once, never to two accounts) or, when none waits, makes one at once, with up to
 * `parallelism` generations at a time. After `fill()` (the server calls it once listening)
 * the pool makes keys in the background, `fillConcurrency` at a time, until `size` wait,
 * and again whenever one is taken. Every key is made by OpenSSL on libuv's thread pool
 * (async `generateKeyPair`), never on the main thread.
 */
export class KeyPool {
  private readonly ready: PemKeyPair[] = [];
  private readonly waiting: { resolve(pair: PemKeyPair): void; reject(err: unknown): void }[] = [];
  private inFlight = 0;
  private filling = false;

  constructor(
    /** Keys kept ready once filling; 0 makes every key on demand. */
    readonly size: number,
    private readonly options: { parallelism?: number; fillConcurrency?: number; generate?: () => Promise<PemKeyPair> } = {},
  ) {}

  /** Starts making keys ahead of time (idempotent). */
  fill(): void {
    if (this.filling) return;
    this.filling = true;
    this.pump();
  }

  /** Stops making keys ahead of time (the ones under way finish). */
  stop(): void {
    this.filling = false;
  }

  level(): KeyPoolLevel {
    return { size: this.size, ready: Math.min(this.ready.length, this.size) };
  }

  /** A key pair nobody else gets: a waiting one, else one made now. */
  take(): Promise<PemKeyPair> {
    const pair = this.ready.shift();
    if (pair) {
      this.pump();
      return Promise.resolve(pair);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.pump();
    });
  }

  /** Starts as many generations as the demand and the limits allow. */
  private pump(): void {
    const demand = this.waiting.length;
    const wanted = demand + (this.filling ? Math.max(0, this.size - this.ready.length) : 0);
    const limit = demand > 0 ? (this.options.parallelism ?? availableParallelism()) : (this.options.fillConcurrency ?? 1);
    while (this.inFlight < wanted && this.inFlight < limit) {
      this.inFlight += 1;
      (this.options.generate ?? generateRsaKeyPair)().then(
        (made) => {
          this.inFlight -= 1;
          const taker = this.waiting.shift();
          if (taker) taker.resolve(made);
          else this.ready.push(made);
          this.pump();
        },
        (err: unknown) => {
          this.inFlight -= 1;
          const taker = this.waiting.shift();
          if (taker) {
            taker.reject(err);
            this.pump();
          } else {
            this.filling = false; // no retry loop on a failing generator
          }
        },
      );
    }
  }
}

/** The pool `newAccount` uses when given none: nothing made ahead, at most one generation per core. */
const onDemand = new KeyPool(0);

/**
 * A new isolated account with a fresh API key and RSA key pair. The key pair is generated on
 * libuv's thread pool, so the event loop keeps serving other requests meanwhile.
 */
export async function newAccount(mode: AccountMode, name: string | undefined, nowMs: number, keys: KeyPool = onDemand): Promise<Account> {
  const { privateKey, publicKey } = await keys.take();
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
