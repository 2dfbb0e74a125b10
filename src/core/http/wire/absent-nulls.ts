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
import { jsonPointer } from '../../domain/errors.js';

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

/** Schema types whose output is the input itself (no key of an object inside them is dropped). */
const LEAVES = new Set(['string', 'number', 'boolean', 'bigint', 'enum', 'literal', 'unknown', 'any', 'null']);

/**
 * The body a schema will see, and its unknown fields, from one walk beside the schema
 * (`preparedBody`): `value` is the body without `null` on a field of an object of the schema;
 * `unknown` the pointers of the keys an object of the schema does not know and drops (a
 * strip object), in the order of the body, or undefined when the schema holds a part the walk
 * cannot see through (a union, a transform, a record of objects): then the unknown fields are
 * found by comparing the body with what the schema kept (`unknownFields`).
 */
export interface PreparedBody {
  value: unknown;
  unknown: string[] | undefined;
}

/** One walk's state: the pointers found, and whether the schema was seen through everywhere. */
interface Walk {
  unknown: string[];
  exact: boolean;
}

/**
 * `value` with every `null` on a field of an object of `schema` removed (a copy; `value` is
 * not changed). Keys the schema does not know are kept as they are (the unknown-field
 * warnings still see them).
 */
export function withoutNullOptionals(schema: z.ZodType, value: unknown): unknown {
  return prepare(schema, value, { unknown: [], exact: false }, undefined);
}

/** The body without `null` fields and its unknown fields, in one walk (see `PreparedBody`). */
export function preparedBody(schema: z.ZodType, value: unknown): PreparedBody {
  const walk: Walk = { unknown: [], exact: true };
  const out = prepare(schema, value, walk, []);
  return { value: out, unknown: walk.exact ? walk.unknown : undefined };
}

/** Whether `schema`, under its wrappers, is a pipe (a transform or a preprocess: what it keeps is not known beforehand). */
function piped(schema: z.ZodType): boolean {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodReadonly)
      s = s.unwrap() as z.ZodType;
    else return s instanceof z.ZodPipe;
  }
}

/** One step of the walk; `path` (changed in place, restored on return) is undefined when no pointer is wanted. */
function prepare(schema: z.ZodType, value: unknown, walk: Walk, path: (string | number)[] | undefined): unknown {
  const s = unwrap(schema);
  if (path !== undefined && piped(schema)) walk.exact = false;
  const type = (s as { _zod: { def: { type: string } } })._zod.def.type;
  if (s instanceof z.ZodObject && isRecord(value)) {
    const shape = s.shape as Record<string, z.ZodType>;
    // A strip object drops the keys it does not know; a loose one keeps them, a strict one refuses them.
    const strips = (s as { _zod: { def: { catchall?: unknown } } })._zod.def.catchall === undefined;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      const item = value[key];
      if (field === undefined) {
        put(out, key, item);
        if (path !== undefined && strips) walk.unknown.push(jsonPointer([...path, key]));
      } else if (item === null) continue;
      else if (path === undefined) put(out, key, prepare(field, item, walk, path));
      else {
        path.push(key);
        put(out, key, prepare(field, item, walk, path));
        path.pop();
      }
    }
    return out;
  }
  if (s instanceof z.ZodArray && Array.isArray(value)) {
    const element = s.element as z.ZodType;
    if (path === undefined) return value.map((item) => prepare(element, item, walk, path));
    return value.map((item, i) => {
      path.push(i);
      const out = prepare(element, item, walk, path);
      path.pop();
      return out;
    });
  }
  if (s instanceof z.ZodUnion && isRecord(value)) {
    walk.exact = false;
    // A union of objects (none in request bodies today): the first option the value fits after the pass.
    for (const option of s.options as z.ZodType[]) {
      const candidate = withoutNullOptionals(option, value);
      if (option.safeParse(candidate).success) return candidate;
    }
    return value;
  }
  if (value !== null && typeof value === 'object') {
    // A record of leaves keeps every key and value; anything else inside is not seen through.
    const leafRecord = s instanceof z.ZodRecord && LEAVES.has((s.valueType as { _zod: { def: { type: string } } })._zod.def.type);
    if (!leafRecord && !LEAVES.has(type)) walk.exact = false;
  } else if (!LEAVES.has(type) && !(s instanceof z.ZodObject) && !(s instanceof z.ZodArray) && !(s instanceof z.ZodRecord))
    walk.exact = false;
  return value;
}
