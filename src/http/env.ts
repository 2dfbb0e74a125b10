/**
 * The Hono environments (context variables) of the sandbox's routers: `BodyEnv` for what
 * every route has (the parsed body), `AppEnv` for the routes that still reach the sandbox
 * through the context (/_sandbox, the payment page, the panel), and `ApiEnv` for /v4, which
 * has no sandbox (its routers and middleware take their ports from `createApp`) and adds what
 * authentication found and the request log's annotations.
 */
import type { Sandbox } from '../sandbox.js';
import type { Account } from '../domain/entities.js';

/** What every router's context holds, whatever it mounts. */
export interface BodyEnv {
  Variables: {
    /** The request's JSON body, parsed once by the body gate (undefined when there is none). */
    body: unknown;
  };
}

/** /_sandbox, /pay, the panel (no account). */
export interface AppEnv {
  Variables: {
    sandbox: Sandbox;
    /** The request's JSON body, parsed once by the body gate (undefined when there is none). */
    body: unknown;
  };
}

/** The emulated API under /v4: an authenticated account and its scopes. */
export interface ApiEnv {
  Variables: BodyEnv['Variables'] & {
    /** The authenticated merchant account (set by auth). */
    account: Account;
    /** Scopes the bearer token grants. */
    scopes: readonly string[];
    /** The `--latency` wait of this request, when one is configured (see latency.ts). */
    latency: Promise<void> | undefined;
    /** Request-log annotations. */
    idempotencyKey: string | undefined;
    replayed: boolean;
    warnings: string[];
  };
}
