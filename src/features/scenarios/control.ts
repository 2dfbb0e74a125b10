/**
 * The control routes of scenarios, their definitions and handlers: `/_sandbox/scenarios`, the
 * loaded scenarios (start-up and run time, in matching order); loading a scenario file at run
 * time (tried first), and removing run-time ones.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { scenarioFileSchema } from './schema.js';
import { controlOperation } from '../../core/http/openapi/document.js';
import { errorSchema } from '../../core/http/schemas.js';
import { json, type ControlHandler } from '../../core/http/control-route-parts.js';
import { documentedBody } from '../../core/http/validation.js';
import { notFound } from '../../core/domain/errors.js';
import { scenarioSummarySchema, type ScenarioSummary } from './control.schemas.js';
import type { AppEnv } from '../../core/http/env.js';
import { createRouter } from '../../core/http/router.js';
import type { ScenarioControl } from './scenario-control.js';

/**
 * The scenario file's schema as the document's `ScenarioFile` component. A copy: the scenario
 * format is plain zod, possibly built before @hono/zod-openapi extended zod, and then without
 * `.openapi`; a clone made now has it.
 */
export const scenarioFileComponent = (): z.ZodType => scenarioFileSchema.clone().openapi('ScenarioFile');

export const list = createRoute({
  method: 'get',
  path: '/scenarios',
  ...controlOperation,
  operationId: 'listScenarios',
  summary: 'The loaded scenarios and their rules, in matching order',
  responses: { 200: json(z.object({ scenarios: z.array(scenarioSummarySchema) })) },
});

export const load = createRoute({
  method: 'post',
  path: '/scenarios',
  ...controlOperation,
  operationId: 'loadScenario',
  summary: 'Load a scenario file at run time, tried before the scenarios loaded at start-up',
  description:
    'The body is a scenario file (the format of `--scenario` files), checked by the same loader. It is tried before every scenario loaded at start-up and before those loaded earlier at run time; one loaded at run time with the same name is replaced (200) and moves to the front. A name of a start-up scenario is refused. Run-time scenarios are kept by a reset and are not persisted: a restart forgets them.',
  // Validated by the loader, which words a bad file's problems: documented by reference.
  request: { body: documentedBody('ScenarioFile') },
  responses: {
    201: json(scenarioSummarySchema, 'Loaded'),
    200: json(scenarioSummarySchema, 'Loaded in place of a run-time scenario of the same name'),
    400: json(errorSchema, "Not a valid scenario file: the loader's one-line message, a detail (pointer into the body) per problem"),
  },
});

export const remove = createRoute({
  method: 'delete',
  path: '/scenarios/{name}',
  ...controlOperation,
  operationId: 'removeScenario',
  summary: 'Remove a scenario loaded at run time',
  request: {
    params: z.object({
      name: z.string().openapi({ param: { name: 'name', in: 'path' }, description: "The scenario's `name` (URL-encoded)." }),
    }),
  },
  responses: { 204: { description: 'Removed' }, 404: json(errorSchema, 'No scenario of that name was loaded at run time') },
});

export const clear = createRoute({
  method: 'delete',
  path: '/scenarios',
  ...controlOperation,
  operationId: 'removeRuntimeScenarios',
  summary: 'Remove every scenario loaded at run time (the start-up ones stay)',
  responses: {
    200: json(
      z.object({ removed: z.number().int().min(0).openapi({ description: 'How many were removed.' }) }).openapi('ScenariosRemoved'),
    ),
  },
});

export type ListRoute = typeof list;
export type LoadRoute = typeof load;
export type RemoveRoute = typeof remove;
export type ClearRoute = typeof clear;

/** What the scenario routes use. */
export interface ScenarioControlDeps {
  /** The loaded scenarios, in matching order. */
  scenarios: { describe(): ScenarioSummary[] };
  /** Scenarios loaded and removed at run time (not persisted; a reset keeps them). */
  control: ScenarioControl<ScenarioSummary>;
}

export function scenarioHandlers({ scenarios, control }: ScenarioControlDeps) {
  const list: ControlHandler<ListRoute> = (c) => c.json({ scenarios: scenarios.describe() }, 200);

  const load: ControlHandler<LoadRoute> = (c) => {
    const { scenario, replaced } = control.loadScenario(c.get('body'));
    return replaced ? c.json(scenario, 200) : c.json(scenario, 201);
  };

  const remove: ControlHandler<RemoveRoute> = (c) => {
    const { name } = c.req.valid('param');
    if (!control.removeScenario(name)) {
      const startup = scenarios.describe().some((s) => s.name === name);
      throw notFound(
        startup
          ? `Scenario ${name} was loaded at start-up: only scenarios loaded at run time can be removed`
          : `No scenario ${name} was loaded at run time`,
      );
    }
    return c.body(null, 204);
  };

  const clear: ControlHandler<ClearRoute> = (c) => c.json({ removed: control.clearScenarios() }, 200);

  return { list, load, remove, clear };
}

export function scenarioControlRoutes(deps: ScenarioControlDeps): OpenAPIHono<AppEnv> {
  const handlers = scenarioHandlers(deps);
  const router = createRouter<AppEnv>();
  router.openAPIRegistry.register('ScenarioFile', scenarioFileComponent());
  return router.openapi(list, handlers.list).openapi(load, handlers.load).openapi(remove, handlers.remove).openapi(clear, handlers.clear);
}
