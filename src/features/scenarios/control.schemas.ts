/**
 * Response schema of a loaded scenario as the control API lists it.
 */
import { z } from '@hono/zod-openapi';
import { scenarioMatchSchema } from './schema.js';
import { scenarioStepSchema } from './step-schema.js';

export const scenarioSummarySchema = z
  .object({
    name: z.string(),
    source: z.string(),
    origin: z.enum(['runtime', 'startup']).openapi({
      description:
        'runtime: loaded with POST /_sandbox/scenarios (tried first, newest first); startup: a --scenario file or the default scenario.',
    }),
    description: z.string().nullable(),
    rules: z.array(
      z.object({ name: z.string(), description: z.string().nullable(), match: scenarioMatchSchema, steps: z.array(scenarioStepSchema) }),
    ),
  })
  .openapi('ScenarioSummary');

export type ScenarioSummary = z.infer<typeof scenarioSummarySchema>;
