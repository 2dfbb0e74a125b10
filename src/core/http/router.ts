/**
 * The one way to make a router: `createRouter<Env>()` is an OpenAPIHono whose validation
 * hook (set here, once) answers a failed query, path or header validation with the spec's
 * 400 envelope. A route's JSON body is not validated by zod-openapi's own validator: the
 * router hands it to `validBody` (`validation.ts`), the one body validation of /v4 and
 * /_sandbox, after the path and query passed, and the handler reads the result with
 * `c.req.valid('json')` as usual. The document still describes the body from the route.
 */
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import { getPath as honoPath } from 'hono/utils/url';
import type { ZodError, ZodType } from 'zod';
import type { BodyEnv } from './env.js';
import { validationHook } from './errors.js';
import { validBody } from './validation.js';

/** The validation hook type of OpenAPIHono routers. */
export type Hook = NonNullable<ConstructorParameters<typeof OpenAPIHono<BodyEnv>>[0]>['defaultHook'];

/** The validation hook of paths, queries and headers: a 400 envelope on failure. */
export const validation: Hook = (result, c) => {
  if (!result.success) return validationHook(result.error as ZodError, c as unknown as Context<BodyEnv>, result.target);
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

/** The zod schema of a route's JSON body, if it declares one. */
function jsonBodyOf(route: RouteConfig): { schema: ZodType; required: boolean } | undefined {
  const body = route.request?.body;
  const media = body?.content['application/json'];
  const schema: unknown = media !== undefined && 'schema' in media ? media.schema : undefined;
  return schema instanceof Object && 'safeParse' in schema ? { schema: schema as ZodType, required: body?.required === true } : undefined;
}

/** A router for `Env` with the sandbox's validation hook; `getPath` is for the app's root router. */
export function createRouter<Env extends BodyEnv>(options: { getPath?: GetPath } = {}): OpenAPIHono<Env> {
  const router = new OpenAPIHono<Env>({
    ...options,
    defaultHook: validation as NonNullable<ConstructorParameters<typeof OpenAPIHono<Env>>[0]>['defaultHook'],
  });
  const register = router.openapi.bind(router);
  // A route with a JSON body: documented as declared, registered without it (so zod-openapi adds
  // no validator of its own), its handler preceded by `validBody` with the declared schema.
  router.openapi = ((route: RouteConfig, handler: Handler, hook?: Hook) => {
    const body = jsonBodyOf(route);
    if (body === undefined) return register(route as never, handler as never, hook as never);
    router.openAPIRegistry.registerPath(route);
    const { body: _documented, ...request } = route.request ?? {};
    const validated: Handler = (c, next) => {
      const data = validBody(c as unknown as Context<BodyEnv>, { body: body.schema, bodyOptional: !body.required });
      c.req.addValidatedData('json', data as object);
      return handler(c, next);
    };
    return register({ ...route, request, hide: true } as never, validated as never, hook as never);
  }) as unknown as typeof router.openapi;
  return router;
}
