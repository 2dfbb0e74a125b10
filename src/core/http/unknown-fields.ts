/**
 * Unknown fields of a request body are ignored, as a production API would; they are noted as
 * warnings. The body's walk beside its schema finds them (`wire/absent-nulls.ts`
 * `preparedBody`); for a schema it cannot see through, `unknownFields` finds them, as JSON
 * pointers, by comparing the raw body with what the schema kept.
 */
import type { Context } from 'hono';
import type { ApiEnv, BodyEnv, Exchange } from './env.js';
import { jsonPointer } from '../domain/errors.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Pointers of the keys present in `raw` but dropped from `parsed`, at every depth. */
export function unknownFields(raw: unknown, parsed: unknown, path: (string | number)[] = []): string[] {
  if (isObject(raw) && isObject(parsed)) {
    const out: string[] = [];
    for (const key of Object.keys(raw)) {
      // Own keys only: `constructor`, `toString` or `__proto__` are unknown fields like any other.
      if (!Object.hasOwn(parsed, key)) out.push(jsonPointer([...path, key]));
      else out.push(...unknownFields(raw[key], parsed[key], [...path, key]));
    }
    return out;
  }
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    return raw.flatMap((item, i) => unknownFields(item, parsed[i], [...path, i]));
  }
  return [];
}

/** Notes each unknown field of the request body (`pointers()` finds them) in the request log's warnings (/v4 only: other routes keep no log). */
export function warnUnknownFields<E extends BodyEnv>(c: Context<E>, pointers: () => readonly string[]): void {
  const warnings = ((c as unknown as Context<ApiEnv>).get('exchange') as Exchange | undefined)?.warnings;
  if (!warnings) return;
  for (const pointer of pointers()) warnings.push(`unknown field ${pointer} ignored`);
}
