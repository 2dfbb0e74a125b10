/**
 * The one way to make a router: `createRouter<Env>()` is an OpenAPIHono whose validation
 * hook (set here, once) answers a failed query, path, header or body validation with the
 * spec's 400 envelope, and notes the unknown fields a valid body carried.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import type { AppEnv } from './env.js';
import { validationHook } from './errors.js';
import { warnUnknownFields } from './unknown-fields.js';

/** The validation hook type of OpenAPIHono routers. */
export type Hook = NonNullable<ConstructorParameters<typeof OpenAPIHono<AppEnv>>[0]>['defaultHook'];

/** The validation hook: a 400 envelope on failure; on success, notes ignored unknown fields. */
export const validation: Hook = (result, c) => {
  const ctx = c as unknown as Context<AppEnv>;
  if (!result.success) return validationHook(result.error as ZodError, ctx, result.target);
  if (result.target === 'json') warnUnknownFields(ctx, ctx.get('body'), result.data);
  return undefined;
};

/** A router for `Env` with the sandbox's validation hook. */
export function createRouter<Env extends AppEnv>(): OpenAPIHono<Env> {
  return new OpenAPIHono<Env>({ defaultHook: validation as NonNullable<ConstructorParameters<typeof OpenAPIHono<Env>>[0]>['defaultHook'] });
}
