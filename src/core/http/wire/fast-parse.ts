/**
 * A body schema's parse compiled by zod itself (`z.compile`: a parser generated from the
 * schema, run before zod's own), for the bodies a route compiles when it is built (`bodyPass`).
 * zod stays the source: of the schema, of the value a valid body parses to, and of every
 * refusal's details, which always come from the schema's own parse.
 *
 * zod does not compile a check that runs on a condition of its own (`when`): the cross-field
 * rules of a body (`onAnyObject`) and metadata's limit run on any object, valid or not, so that
 * one 400 lists every failure. On a body with no failure a check runs whatever its condition,
 * as each of those conditions holds for the object a valid body is at that point. So the
 * compiled parse is of a twin of the schema whose checks have no condition: a body it accepts
 * is valid for the schema and parses to the same value; a body it refuses is parsed again by
 * the schema itself, for the details.
 */
import { z } from '@hono/zod-openapi';

/** What this module reads of a schema's or a check's definition. */
interface Def {
  type?: string;
  /** A check's kind: `custom` for a refinement. */
  check?: string;
  checks?: Check[];
  when?: unknown;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
}
interface Check {
  _zod: { def: Def };
}

const defOf = (node: z.ZodType | Check): Def => (node as unknown as Check)._zod.def;

/** A refinement's condition (zod's own checks' conditions, e.g. a length's, it compiles). */
const conditional = (check: Check): boolean => defOf(check).check === 'custom' && defOf(check).when !== undefined;

/**
 * The refinement without its condition: the same check (its function kept), over a definition
 * without `when`. A refinement keeps its function outside its definition, so it is copied, not
 * made again from the definition.
 */
function unconditional(check: Check): Check {
  if (!conditional(check)) return check;
  const { when: _when, ...def } = defOf(check);
  const copy = Object.assign(Object.create(Object.getPrototypeOf(check) as object) as Check, check);
  copy._zod = { ...check._zod, def };
  return copy;
}

/** The schema types that hold other schemas in these parts of their definition. */
const HOLDERS = new Set(['optional', 'nullable', 'default', 'readonly', 'record', 'array']);
const PARTS = ['innerType', 'keyType', 'valueType', 'element'] as const;

/**
 * `schema` with no check on a condition at any depth under objects, records, arrays and
 * optional, nullable, default and readonly wrappers; the same schema where nothing changes.
 */
function withoutConditions(schema: z.ZodType, seen: Map<z.ZodType, z.ZodType>): z.ZodType {
  const known = seen.get(schema);
  if (known) return known;
  const def = defOf(schema);
  let changed = false;
  const next: Def = { ...def };
  if (def.checks?.some(conditional)) {
    next.checks = def.checks.map(unconditional);
    changed = true;
  }
  if (def.type === 'object' && def.shape) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(def.shape)) {
      shape[key] = withoutConditions(field, seen);
      if (shape[key] !== field) changed = true;
    }
    next.shape = shape;
  }
  for (const part of HOLDERS.has(def.type ?? '') ? PARTS : []) {
    const inner = def[part];
    if (inner === undefined) continue;
    next[part] = withoutConditions(inner, seen);
    if (next[part] !== inner) changed = true;
  }
  const out = changed ? (z.clone(schema, next as never) as z.ZodType) : schema;
  seen.set(schema, out);
  return out;
}

/** The compiled twins, one per schema; null where zod would not compile the twin. */
const compiled = new WeakMap<z.ZodType, z.ZodType | null>();

/** Compiles `schema`'s parse once (`bodyPass` does, when a route is built). */
export function compileParse(schema: z.ZodType): void {
  if (compiled.has(schema)) return;
  try {
    compiled.set(schema, z.compile(withoutConditions(schema, new Map()), { strict: true }));
  } catch {
    compiled.set(schema, null); // zod refused it: the schema's own parse, as before
  }
}

/**
 * `schema`'s parse of `value`: the compiled one when it accepts the value, else the schema's own
 * (its details). A refused body is parsed twice, the twin's way then the schema's.
 */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  const twin = compiled.get(schema);
  if (twin) {
    const fast = twin.safeParse(value) as z.ZodSafeParseResult<T>;
    if (fast.success) return fast;
  }
  return schema.safeParse(value);
}
