/**
 * Explicit `null` on an optional request field means the same as leaving it out: many serializers write `"description": null` for an absent field.
 * One schema-driven pass for every request body: it walks the body beside its zod schema
 * and drops each key of an object schema whose value is `null`, at any depth. An optional
 * field (or one with a default) is then simply absent; a required field sent as `null` is
 * absent too, so the schema reports it as `missing` at its pointer, like a field left out.
 * Values of records (`metadata`) and array items are not fields and are left alone (a `null`
 * there stays a `type_error`).
 */
import { z } from '@hono/zod-openapi';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The schema under optional, default, nullable and readonly wrappers (and a pipe's output). */
function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodReadonly)
      s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.out as z.ZodType;
    else return s;
  }
}

/** Sets an own key (`__proto__` included, as JSON.parse makes it) without touching the prototype. */
const put = (target: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/**
 * `value` with every `null` on a field of an object of `schema` removed (a copy; `value` is
 * not changed). Keys the schema does not know are kept as they are (the unknown-field
 * warnings still see them).
 */
export function withoutNullOptionals(schema: z.ZodType, value: unknown): unknown {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject && isRecord(value)) {
    const shape = s.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      const item = value[key];
      if (field === undefined) put(out, key, item);
      else if (item === null) continue;
      else put(out, key, withoutNullOptionals(field, item));
    }
    return out;
  }
  if (s instanceof z.ZodArray && Array.isArray(value)) return value.map((item) => withoutNullOptionals(s.element as z.ZodType, item));
  if (s instanceof z.ZodUnion && isRecord(value)) {
    // A union of objects (none in request bodies today): the first option the value fits after the pass.
    for (const option of s.options as z.ZodType[]) {
      const candidate = withoutNullOptionals(option, value);
      if (option.safeParse(candidate).success) return candidate;
    }
  }
  return value;
}
