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
import type { SubscribeRequests } from './request-log.js';

export interface RouteContext {
  /** The emulated API, mounted at /v4 behind the pipeline's front (clock, request log, rate limit, latency, fault header). */
  api: OpenAPIHono<ApiEnv>;
  /** The spec's pagination example's paths without the /v4 prefix (the pipeline's front without faults). */
  bare: OpenAPIHono<ApiEnv>;
  /** The control API, mounted at /_sandbox behind the body gate. */
  control: OpenAPIHono<AppEnv>;
  /** Pages at the app's root (/pay, the panel); mounted after the APIs. */
  pages: OpenAPIHono<AppEnv>;
  /** What a /v4 route runs of the pipeline (`pipeline.ts`): its operation's guard, a create's steps. */
  pipeline: ApiPipeline;
  /** Subscribes to each logged /v4 request (`LoggedRequest`; a failing subscriber is isolated). */
  subscribeRequests: SubscribeRequests;
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
