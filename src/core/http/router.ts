/**
 * The one way to make a router: `createRouter<Env>()` is an OpenAPIHono whose validation
 * hook (set here, once) answers a failed query, path, header or body validation with the
 * spec's 400 envelope, and notes the unknown fields a valid body carried.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getPath as honoPath } from 'hono/utils/url';
import type { ZodError } from 'zod';
import type { BodyEnv } from './env.js';
import { validationHook } from './errors.js';
import { warnUnknownFields } from './unknown-fields.js';

/** The validation hook type of OpenAPIHono routers. */
export type Hook = NonNullable<ConstructorParameters<typeof OpenAPIHono<BodyEnv>>[0]>['defaultHook'];

/** The validation hook: a 400 envelope on failure; on success, notes ignored unknown fields. */
export const validation: Hook = (result, c) => {
  const ctx = c as unknown as Context<BodyEnv>;
  if (!result.success) return validationHook(result.error as ZodError, ctx, result.target);
  if (result.target === 'json') warnUnknownFields(ctx, ctx.get('body'), result.data);
  return undefined;
};

/** How a router reads a request's path (the app's root router: `pathWithoutTrailingSlash`). */
export type GetPath = (request: Request) => string;

/**
 * The path a request is routed by: its decoded path without trailing slashes, so that
 * `GET /v4/transactions/` is answered like `GET /v4/transactions`.
 */
export const pathWithoutTrailingSlash: GetPath = (request) => {
  const path = honoPath(request);
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
};

/** A router for `Env` with the sandbox's validation hook; `getPath` is for the app's root router. */
export function createRouter<Env extends BodyEnv>(options: { getPath?: GetPath } = {}): OpenAPIHono<Env> {
  return new OpenAPIHono<Env>({
    ...options,
    defaultHook: validation as NonNullable<ConstructorParameters<typeof OpenAPIHono<Env>>[0]>['defaultHook'],
  });
}
