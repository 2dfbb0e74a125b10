/**
 * The Hono environments (context variables) of the sandbox's routers: `BodyEnv` for what
 * every route has (the parsed body), `AppEnv` for /_sandbox, the payment page and the panel,
 * and `ApiEnv` for /v4, which adds what authentication found and the request log's
 * annotations. No context holds the sandbox: every router and middleware takes its ports from
 * `createApp`.
 */
import type { AccountIdentity } from '../auth/account.js';

/** What every router's context holds, whatever it mounts. */
export interface BodyEnv {
  Variables: {
    /** The request's JSON body, parsed once by the body gate (undefined when there is none). */
    body: unknown;
  };
}

/** /_sandbox, /pay, the panel (no account): the body, nothing else. */
export type AppEnv = BodyEnv;

/** The emulated API under /v4: an authenticated account and its scopes. */
export interface ApiEnv {
  Variables: BodyEnv['Variables'] & {
    /** The authenticated merchant account (set by auth). */
    account: AccountIdentity;
    /** Scopes the bearer token grants. */
    scopes: readonly string[];
    /** The `--latency` wait of this request, when one is configured (see load-rehearsal.ts). */
    latency: Promise<void> | undefined;
    /** Request-log annotations. The Idempotency-Key when `idempotent` found it free of card data and secrets (logged as it is). */
    idempotencyKey: string | undefined;
    replayed: boolean;
    warnings: string[];
    /**
     * Writes this request's log entry now, as answered `status` (the request log's, for a
     * create's unit of work: the entry commits with the create); withdrawn (undefined) when a
     * fault may still change the answer.
     */
    logInUnit: ((status: number) => void) | undefined;
    /** When a create arrived, on its account's clock (ms; set by the request log for creates only): it may be logged long after. */
    arrivedAt: number | undefined;
    /** The idempotency fingerprint of a keyed request (method, path, canonical body, hashed), once made; undefined before or without a key. */
    requestFingerprint: string | undefined;
    /** The canonical JSON of the parsed body, made once (`idempotency.ts` `canonicalBody`), or undefined until asked for. */
    canonicalBody: string | undefined;
    /** Whether the parsed body carries card data, found by the request log's one scan of it (undefined until then, or with no parsed body). */
    cardData: boolean | undefined;
    /** The value a create answered, as `idempotent` ran it (read by the go-live report); unset on a replay or a refusal. */
    answer: unknown;
    /**
     * The client never got this request's answer: a fault after execution replaced it
     * (`503-after`, `timeout-after`, `reset-after`), or the connection closed before it was
     * written (set by the request log, also after the fact).
     */
    answerLost: boolean;
  };
}
