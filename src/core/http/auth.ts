/**
 * Authentication and tenancy for /v4 (spec: Authentication).
 * Bearer = the account's `sk_test_` API key (all scopes) or an RS256 JWT with the account's
 * `kid`; `X-MERCHANT-ACCOUNT-ID` must name the token's account. 401 for a bad token (with
 * `WWW-Authenticate: Bearer`, RFC 6750), 400 for a missing account header, 403 for another
 * account or a missing scope. A JWT without a `scopes` claim is a valid token that grants
 * nothing (403 on every operation). JWT times (`iat`, `nbf`, `exp`) are checked against the
 * real wall clock with `JWT_LEEWAY_S` of leeway, never the sandbox clock: the merchant mints tokens with real time, and advancing the sandbox clock must
 * not turn them into 401s. A restricted key (`core/auth/api-keys.ts`) is an `sk_test_` key that
 * grants only its scopes: an operation outside them is 403 naming the missing scope; a revoked
 * one is an unknown key (401).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { badRequest, forbidden, unauthorized } from '../domain/errors.js';
import type { ApiKeyService } from '../auth/api-keys.js';
import type { AccountDirectory, AccountIdentity } from '../auth/account.js';
import type { ApiEnv } from './env.js';

/** The account lookups authentication makes: by API key, by JWT `kid`. */
type AccountKeyLookup = Pick<AccountDirectory, 'byApiKey' | 'byKid'>;

/** Every scope the sandbox knows. */
export const SCOPES = [
  'transactions.read',
  'transactions.write',
  'buyers.read',
  'subscriptions.read',
  'subscriptions.write',
  'refunds.write',
] as const;
export type Scope = (typeof SCOPES)[number];

const ALL_SCOPES: readonly string[] = SCOPES;

/** Clock skew tolerated on a JWT's `iat`, `nbf` and `exp`, in seconds. */
export const JWT_LEEWAY_S = 60;

interface JwtHeader {
  alg?: unknown;
  kid?: unknown;
}
interface JwtClaims {
  scopes?: unknown;
  iat?: unknown;
  exp?: unknown;
  nbf?: unknown;
}

function decodeSegment<T>(segment: string): T | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * JWT verification keys, parsed once per `kid` (account rows are new objects on every
 * lookup, so the key is the kid; the PEM is compared so a changed key is parsed again).
 */
export class VerificationKeys {
  private readonly byKid = new Map<string, { pem: string; key: KeyObject }>();
  /** How many PEMs were parsed so far (for tests). */
  parses = 0;

  /** The parsed public key of `account`'s kid. */
  keyOf(account: AccountIdentity): KeyObject {
    const cached = this.byKid.get(account.jwt_kid);
    if (cached && cached.pem === account.jwt_public_key_pem) return cached.key;
    const key = createPublicKey(account.jwt_public_key_pem);
    this.parses += 1;
    this.byKid.set(account.jwt_kid, { pem: account.jwt_public_key_pem, key });
    return key;
  }

  /** Forgets every parsed key. */
  clear(): void {
    this.byKid.clear();
    this.parses = 0;
  }
}

/**
 * Verifies an RS256 JWT; returns its account and scopes or throws 401. `nowMs` is the real wall
 * clock (never the sandbox clock); `keys` caches the parsed public keys.
 */
export function verifyJwt(
  token: string,
  accounts: AccountKeyLookup,
  nowMs: number,
  keys: VerificationKeys,
): { account: AccountIdentity; scopes: string[] } {
  const parts = token.split('.');
  if (parts.length !== 3) throw unauthorized('The bearer token is not valid: neither an API key nor a JWT');
  const [h, p, s] = parts as [string, string, string];
  const header = decodeSegment<JwtHeader>(h);
  const claims = decodeSegment<JwtClaims>(p);
  if (!header || !claims) throw unauthorized('The bearer token is not valid: the JWT cannot be decoded');
  if (header.alg !== 'RS256') throw unauthorized('The bearer token is not valid: the JWT must be signed with RS256');
  if (typeof header.kid !== 'string') throw unauthorized('The bearer token is not valid: the JWT header has no kid');
  const account = accounts.byKid(header.kid);
  if (!account) throw unauthorized(`The bearer token is not valid: unknown kid "${header.kid}"`);
  const signatureOk = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), keys.keyOf(account), Buffer.from(s, 'base64url'));
  if (!signatureOk) throw unauthorized('The bearer token is not valid: bad JWT signature');
  const now = Math.floor(nowMs / 1000);
  if (typeof claims.exp !== 'number') throw unauthorized('The bearer token is not valid: the JWT has no exp claim');
  if (typeof claims.iat !== 'number') throw unauthorized('The bearer token is not valid: the JWT has no iat claim');
  if (claims.iat > now + JWT_LEEWAY_S)
    throw unauthorized(
      `The bearer token is not valid: the JWT was issued in the future (iat is more than ${JWT_LEEWAY_S} s after the real clock)`,
    );
  if (claims.exp <= now - JWT_LEEWAY_S)
    throw unauthorized(`The bearer token is not valid: the JWT has expired (exp is more than ${JWT_LEEWAY_S} s before the real clock)`);
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now + JWT_LEEWAY_S)) {
    throw unauthorized('The bearer token is not valid: the JWT is not valid yet (nbf)');
  }
  if (claims.scopes === undefined) return { account, scopes: [] }; // valid, but grants nothing: 403
  if (!Array.isArray(claims.scopes) || !claims.scopes.every((x): x is string => typeof x === 'string')) {
    throw unauthorized('The bearer token is not valid: the JWT scopes claim must be an array of strings');
  }
  return { account, scopes: claims.scopes };
}

/** Finds the account and scopes of a restricted key's secret (`ApiKeyService.authenticate`). */
export type RestrictedKeyLookup = (secret: string) => { account: AccountIdentity; key: { id: string; scopes: string[] } } | undefined;

/** What a bearer token grants; `restrictedKeyId` when it is a restricted key. */
export interface Granted {
  account: AccountIdentity;
  scopes: readonly string[];
  restrictedKeyId?: string;
}

/** Resolves the bearer token of an `Authorization` header, or throws 401. */
export function authenticate(
  authorization: string | undefined,
  accounts: AccountKeyLookup,
  nowMs: number,
  keys: VerificationKeys,
  restrictedKeys?: RestrictedKeyLookup,
): Granted {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw unauthorized('Missing or malformed Authorization header: expected "Bearer <API key or JWT>"');
  const token = match[1]!;
  if (token.startsWith('sk_live_')) {
    throw unauthorized('This is a production (sk_live_) key: the sandbox never accepts production keys. Use an sk_test_ key.');
  }
  if (token.startsWith('sk_test_')) {
    const account = accounts.byApiKey(token);
    if (account) return { account, scopes: ALL_SCOPES };
    const restricted = restrictedKeys?.(token);
    if (restricted) return { account: restricted.account, scopes: restricted.key.scopes, restrictedKeyId: restricted.key.id };
    throw unauthorized('The bearer token is not valid: unknown API key (or a revoked restricted key)');
  }
  return verifyJwt(token, accounts, nowMs, keys);
}

/**
 * Whether `authorization` authenticates as the account `accountId` (no throw: a wrong, missing
 * or another account's token is false). The rate limit asks it before counting a request.
 */
export function authenticatesAs(
  authorization: string | undefined,
  accountId: string,
  accounts: AccountKeyLookup,
  nowMs: number,
  keys: VerificationKeys,
  restrictedKeys?: RestrictedKeyLookup,
): boolean {
  try {
    return authenticate(authorization, accounts, nowMs, keys, restrictedKeys).account.id === accountId;
  } catch {
    return false;
  }
}

/** True when `granted` holds `scope` itself or its `*.read` / `*.write` wildcard. */
export function hasScope(granted: readonly string[], scope: Scope): boolean {
  return granted.includes(scope) || granted.includes(`*.${scope.slice(scope.indexOf('.') + 1)}`);
}

/** The realm of the sandbox's `WWW-Authenticate` challenges. */
const REALM = 'payment-sandbox';

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 section 3): `Bearer` with the realm, and
 * `error="invalid_token"` when a token was sent (a request without one gets no error code).
 */
export function bearerChallenge(authorization: string | undefined): string {
  return authorization && authorization.trim() !== '' ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
}

/** What `apiAuth` needs: the accounts and the restricted keys. */
export interface ApiAuthDeps {
  accounts: AccountKeyLookup;
  apiKeys: Pick<ApiKeyService, 'authenticate'>;
  /** The parsed JWT keys; by default a cache of this app alone. */
  keys?: VerificationKeys;
}

/** The middleware of every /v4 operation needing `scope`: token and account, scope, then the body gate (`pipeline.ts` `securedBy`). */
export type Secured = (scope: Scope) => MiddlewareHandler<ApiEnv>;

/** The authentication of one app's /v4 operations, as the pipeline runs it (`pipeline.ts` `securedBy`). */
export interface ApiAuth {
  /**
   * Token, then account header (401/400/403); sets `account` and `scopes`. Returns the
   * restricted key the request authenticated with, if one (for the scope's 403).
   */
  authenticate(c: Context<ApiEnv>): string | undefined;
  /** 403 unless the token grants `scope`. */
  requireScope(c: Context<ApiEnv>, scope: Scope, restrictedKeyId: string | undefined): void;
}

/** The authentication of one app: its JWT key cache is its own, so two apps in one process share nothing. */
export function apiAuth({ accounts, apiKeys, keys = new VerificationKeys() }: ApiAuthDeps): ApiAuth {
  const restricted: RestrictedKeyLookup = (secret) => apiKeys.authenticate(secret);
  return {
    authenticate(c) {
      const authorization = c.req.header('authorization');
      let granted: Granted;
      try {
        // JWT times are real time: the sandbox clock may have been advanced.
        granted = authenticate(authorization, accounts, Date.now(), keys, restricted);
      } catch (err) {
        c.header('WWW-Authenticate', bearerChallenge(authorization));
        throw err;
      }
      const { account, scopes } = granted;
      const accountId = c.req.header('x-merchant-account-id');
      if (!accountId) {
        throw badRequest('Missing X-MERCHANT-ACCOUNT-ID header', [
          { type: 'missing', pointer: '/x-merchant-account-id', message: 'Header required', location: 'header' },
        ]);
      }
      if (accountId !== account.id) {
        throw forbidden(`The bearer token does not belong to merchant account "${accountId}"`);
      }
      c.set('account', account);
      c.set('scopes', scopes);
      return granted.restrictedKeyId;
    },
    requireScope(c, scope, restrictedKeyId) {
      const granted = c.get('scopes');
      if (restrictedKeyId !== undefined && !hasScope(granted, scope)) {
        throw forbidden(
          `This restricted API key (${restrictedKeyId}) lacks the ${scope} scope; it grants ${granted.join(', ')}. Mint a key with ${scope} or use the account's own key`,
        );
      }
      if (!hasScope(granted, scope)) {
        throw forbidden(
          granted.length === 0
            ? `The token grants no scopes (a JWT without a scopes claim grants none); ${scope} is needed`
            : `The token lacks the ${scope} scope`,
        );
      }
    },
  };
}
