/** The Hono environment of every route: the sandbox context and what auth found. */
import type { Sandbox } from '../sandbox.js';
import type { Account } from '../domain/entities.js';

export interface AppEnv {
  Variables: {
    sandbox: Sandbox;
    /** The authenticated merchant account (set by auth on /v4). */
    account: Account;
    /** Scopes the bearer token grants. */
    scopes: readonly string[];
    /** The request's JSON body, parsed once by the body gate (undefined when there is none). */
    body: unknown;
    /** Request-log annotations. */
    idempotencyKey: string | undefined;
    replayed: boolean;
    warnings: string[];
  };
}
