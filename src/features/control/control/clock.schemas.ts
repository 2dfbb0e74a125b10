/**
 * Response schemas of the sandbox clock: now, its offset, and the steps an advance ran.
 */
import { z } from '@hono/zod-openapi';

/** A timestamp as the API writes it. */
const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000+00:00' });

export const clockSchema = z.object({ now: timestamp, offset_seconds: z.number() }).openapi('Clock');

export const clockAdvancedSchema = clockSchema
  .extend({ steps: z.number().int().openapi({ description: 'How many due steps ran.' }) })
  .openapi('ClockAdvanced');

export type Clock = z.infer<typeof clockSchema>;
export type ClockAdvanced = z.infer<typeof clockAdvancedSchema>;
