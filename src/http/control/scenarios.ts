/**
 * Scenarios loaded at run time (sandbox extension, for CI): `POST /_sandbox/scenarios` loads a
 * scenario file's JSON with the `--scenario` loader (tried before every start-up scenario),
 * `DELETE /_sandbox/scenarios/{name}` and `DELETE /_sandbox/scenarios` remove them.
 * `GET /_sandbox/scenarios` (subscriptions.ts) lists them with the others. A reset keeps them.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { badRequest, notFound } from '../../domain/errors.js';
import { scenarioFileSchema } from '../../scenarios/schema.js';
import type { AppEnv } from '../env.js';
import { createRouter } from '../router.js';
import { errorSchema } from '../schemas.js';
import { scenarioSummarySchema } from './schemas.js';
import { controlOperation } from '../openapi/document.js';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } });

/** The /_sandbox routes that load and remove scenarios at run time. */
export function scenarioControlRoutes(): OpenAPIHono<AppEnv> {
  const app = createRouter<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/scenarios',
      ...controlOperation,
      operationId: 'loadScenario',
      summary: 'Load a scenario file at run time, tried before the scenarios loaded at start-up',
      description:
        'The body is a scenario file (the format of `--scenario` files), checked by the same loader. It is tried before every scenario loaded at start-up and before those loaded earlier at run time; one loaded at run time with the same name is replaced (200) and moves to the front. A name of a start-up scenario is refused. Run-time scenarios are kept by a reset and are not persisted: a restart forgets them.',
      request: { body: { required: true, content: { 'application/json': { schema: scenarioFileSchema.openapi('ScenarioFile') } } } },
      responses: {
        201: json(scenarioSummarySchema, 'Loaded'),
        200: json(scenarioSummarySchema, 'Loaded in place of a run-time scenario of the same name'),
        400: json(errorSchema, "Not a valid scenario file: the loader's one-line message, a detail (pointer into the body) per problem"),
      },
    }),
    (c) => {
      const { scenario, replaced } = c.get('sandbox').loadScenario(c.get('body'));
      return replaced ? c.json(scenario, 200) : c.json(scenario, 201);
    },
    // The loader words the problems (and points at them), not the generic validation hook.
    (result, c) => {
      if (result.success) return undefined;
      const ctx = c as unknown as Context<AppEnv>;
      ctx.get('sandbox').loadScenario(ctx.get('body'));
      throw badRequest('Invalid scenario file');
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/scenarios/{name}',
      ...controlOperation,
      operationId: 'removeScenario',
      summary: 'Remove a scenario loaded at run time',
      request: { params: z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, description: 'The scenario\'s `name` (URL-encoded).' }) }) },
      responses: { 204: { description: 'Removed' }, 404: json(errorSchema, 'No scenario of that name was loaded at run time') },
    }),
    (c) => {
      const sandbox = c.get('sandbox');
      const { name } = c.req.valid('param');
      if (!sandbox.removeScenario(name)) {
        const startup = sandbox.scenarios.describe().some((s) => s.name === name);
        throw notFound(startup ? `Scenario ${name} was loaded at start-up: only scenarios loaded at run time can be removed` : `No scenario ${name} was loaded at run time`);
      }
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/scenarios',
      ...controlOperation,
      operationId: 'removeRuntimeScenarios',
      summary: 'Remove every scenario loaded at run time (the start-up ones stay)',
      responses: { 200: json(z.object({ removed: z.number().int().min(0).openapi({ description: 'How many were removed.' }) }).openapi('ScenariosRemoved')) },
    }),
    (c) => c.json({ removed: c.get('sandbox').clearScenarios() }, 200),
  );

  return app;
}
