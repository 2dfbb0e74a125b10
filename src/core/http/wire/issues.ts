/**
 * How cross-field rules report: a conditionally required field that is absent is an
 * `invalid_type` issue with an undefined input (so the HTTP layer calls it `missing`, like
 * any required field), at the exact path of the field. Refinements read the body
 * defensively, since they also run when other fields failed.
 */
import type { z } from '@hono/zod-openapi';

/** The context of a `superRefine`. */
export type IssueSink = z.core.$RefinementCtx<Record<string, unknown>>;

/** Whether `value` is a plain (non-array) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reports the absent field at `path` as missing. */
export function missing(ctx: IssueSink, path: PropertyKey[], expected: 'object' | 'array' | 'string', message: string): void {
  ctx.addIssue({ code: 'invalid_type', expected, input: undefined, path, message });
}

/** Options of `superRefine` so that a cross-field rule runs on any object, valid or not. */
export const onAnyObject = { when: (payload: { value: unknown }): boolean => isRecord(payload.value) };
