/**
 * What `createApp` hands each feature's `register(ctx)`: the routers the core built (with the
 * pipeline's middleware already in place), the parts of the /v4 pipeline a route runs in its
 * handlers, and the core. A feature's own services are its own: it built them, and its
 * `register` closes over them.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Core } from '../core.js';
import type { ApiEnv, AppEnv } from './env.js';
import type { ApiPipeline } from './pipeline.js';
import type { HttpRecords } from './ports.js';
import type { RequestObserver } from './request-log.js';
import type { ApiFaults } from './faults.js';

export interface RouteContext {
  /** The emulated API, mounted at /v4 behind the request log, `--latency` and the fault header. */
  api: OpenAPIHono<ApiEnv>;
  /** The spec's pagination example's paths without the /v4 prefix (request log and latency, no faults). */
  bare: OpenAPIHono<ApiEnv>;
  /** The control API, mounted at /_sandbox behind the body gate. */
  control: OpenAPIHono<AppEnv>;
  /** Pages at the app's root (/pay, the panel); mounted after the APIs. */
  pages: OpenAPIHono<AppEnv>;
  /** Auth, body validation, scenario faults and idempotency, run by /v4 handlers. */
  pipeline: ApiPipeline;
  /** Which request the last scenario `api_fault` was played on (for the observers). */
  faultPlayedOn: ApiFaults['playedOn'];
  /** Adds a listener of every logged /v4 request (the request log calls each; a failing one is isolated). */
  observe(observer: RequestObserver): void;
  /** The HTTP layer's own records: idempotency keys and the request log. */
  httpRecords: HttpRecords;
  /** The base URL of links built for request `c` (`--public-url`, else the origin the request came in on). */
  baseUrl(c: Context): string;
  /** What the core owns that routes read: options, clock, queries, the change feed, the base URL. */
  core: Core;
}

/** A feature as `createApp` sees it: it mounts its routes. */
export interface Feature {
  register(ctx: RouteContext): void;
}
