/**
 * The Hono environments (context variables) of the sandbox's routers: `AppEnv` for what
 * every route has (the sandbox and the parsed body: /_sandbox, the payment page, the
 * panel), `ApiEnv` for /v4, which adds what authentication found and the request log's
 * annotations.
 */
import type { Sandbox } from '../sandbox.js';
import type { Account } from '../domain/entities.js';

/** Every route: /_sandbox, /pay, the panel (no account). */
export interface AppEnv {
  Variables: {
    sandbox: Sandbox;
    /** The request's JSON body, parsed once by the body gate (undefined when there is none). */
    body: unknown;
  };
}

/** The emulated API under /v4: an authenticated account and its scopes. */
export interface ApiEnv {
  Variables: AppEnv['Variables'] & {
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
