/**
 * The Hono environments (context variables) of the sandbox's routers: `BodyEnv` for what
 * every route has (the parsed body), `AppEnv` for /_sandbox, the payment page and the panel,
 * and `ApiEnv` for /v4, which adds what authentication found and the request's exchange
 * (what its steps note for the request log). No context holds the sandbox: every router and
 * middleware takes its ports from `createApp`.
 */
import type { AccountIdentity } from '../auth/account.js';

/**
 * What one /v4 request's steps note as it goes (`exchange.ts`): the request log's annotations, the
 * `--latency` wait, what the operation answered, a scenario rule's fault to play once it ran, and
 * the hook that writes the entry inside a create's unit of work.
 */
export interface Exchange {
  /** The request log's warnings (ignored unknown fields, ignored webhook fields). */
  warnings: string[];
  /** The Idempotency-Key when `idempotent` found it free of card data and secrets (logged as it is). */
  idempotencyKey: string | undefined;
  /** The answer is the stored one of an earlier request with the same key. */
  replayed: boolean;
  /** The `--latency` wait of this request, when one is configured. */
  latency: Promise<void> | undefined;
  /** The value the operation answered as `idempotent` ran it (unset on a replay or a refusal). */
  answered: unknown;
  /** A scenario rule's fault to play once the operation ran (`503-after`, `reset-after`, ...). */
  faultAfter: string | undefined;
  /**
   * Writes this request's log entry now, as answered `status`, in the create's unit of work
   * (the entry commits with the create); undefined when a fault may still change the answer.
   */
  logInUnit: ((status: number) => void) | undefined;
  /**
   * Makes what the log entry takes from the request (its body and path as logged, redacted)
   * before a create's unit of work opens, so the unit runs its statements back to back;
   * undefined for a request that has no such unit.
   */
  prepareLog: (() => void) | undefined;
}

/** What every router's context holds, whatever it mounts. */
export interface BodyEnv {
  Variables: {
    /** The request's JSON body, parsed once by the body gate (undefined when there is none). */
    body: unknown;
  };
}

/** /_sandbox, /pay, the panel (no account): the body, nothing else. */
export type AppEnv = BodyEnv;

/** The emulated API under /v4: an authenticated account, its scopes, and what the pipeline notes of the request. */
export interface ApiEnv {
  Variables: BodyEnv['Variables'] & {
    /** The authenticated merchant account (set by auth). */
    account: AccountIdentity;
    /** Scopes the bearer token grants. */
    scopes: readonly string[];
    /** What this request's steps note for its log entry (`exchange.ts`), made when it arrives. */
    exchange: Exchange;
    /** The idempotency fingerprint of a keyed request (method, path, canonical body, hashed), once made; undefined before or without a key. */
    requestFingerprint: string | undefined;
    /** The canonical JSON of the parsed body, made once (`idempotency.ts` `canonicalBody`), or undefined until asked for. */
    canonicalBody: string | undefined;
    /**
     * The request log's text of the body and whether it carries card data, made by the body's
     * pass with its canonical text (`wire/body-pass.ts`); undefined when the body had no
     * compiled pass. `body` is the value it was made from.
     */
    loggedBody: { body: unknown; json: string; cardData: boolean } | undefined;
  };
}
