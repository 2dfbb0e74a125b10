/**
 * Validation compiled from a zod schema, once per schema (`compileCheck`; `bodyPass` compiles it
 * beside the body's pass): the schema's shape is read once into a tree of small functions, so a
 * valid body is checked without zod's payloads, issue arrays and per-field result objects.
 *
 * A compiled check answers only "valid, and this is the value zod would give" or `REFUSED`: on a
 * refusal the caller asks zod itself (`safeParse`), so every refusal's details stay zod's. It
 * accepts exactly what zod accepts, with the same output:
 *
 * - each type's own test is zod's (`typeof`, a finite number, an enum's values, a plain object);
 * - every check of a node (length, format, regex, refine, superRefine, overwrite, and a format
 *   schema's own check) runs through zod's own check function, in zod's order, `when` included;
 *   the first issue any check raises refuses;
 * - an object keeps the keys of its shape in the shape's order and drops the others; a record
 *   keeps each key its key schema accepts.
 *
 * A schema holding a part this module does not know (a union, a pipe or transform, an array, a
 * default, a coercion, a loose or strict object, ...) is not compiled at all: `compileCheck`
 * gives undefined and zod validates that schema's bodies. A body with a `__proto__` or
 * `constructor` key anywhere is refused here and so goes to zod, which owns those edge cases.
 */
import type { z } from '@hono/zod-openapi';

/** What a compiled check answers for a body it does not accept (zod then decides, and explains). */
export const REFUSED: unique symbol = Symbol('refused');

/** A compiled check: the value zod would give for `body`, or `REFUSED`. */
export type CompiledCheck = (body: unknown) => unknown;

/** The parts of zod's internals a check reads (zod 4's `_zod`). */
interface Internals {
  _zod: {
    def: {
      type: string;
      checks?: Internals[];
      coerce?: boolean;
      shape?: Record<string, Internals>;
      catchall?: unknown;
      innerType?: Internals;
      keyType?: Internals;
      valueType?: Internals;
      entries?: Record<string, unknown>;
      mode?: string;
      when?: (payload: Payload) => boolean;
    };
    traits: Set<string>;
    check?: (payload: Payload) => unknown;
    optin?: string;
    optout?: string;
    values?: Set<unknown>;
  };
}

/** zod's payload, as a check reads and writes it. */
interface Payload {
  value: unknown;
  issues: unknown[];
}

/** Thrown while compiling a schema that holds a part this module does not know. */
class Unsupported extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The checks zod runs after a node's own test: the node itself first when it is a check (a format). */
function checksOf(s: Internals): Internals[] {
  const own = s._zod.def.checks ?? [];
  return s._zod.traits.has('$ZodCheck') ? [s, ...own] : own;
}

/** Runs `checks` on `value` as zod does on a value without issues; the value after them (an overwrite changes it), or REFUSED. */
function withChecks(test: CompiledCheck, checks: Internals[]): CompiledCheck {
  if (checks.length === 0) return test;
  for (const ch of checks) if (typeof ch._zod.check !== 'function') throw new Unsupported('a check without its function');
  return (body) => {
    const value = test(body);
    if (value === REFUSED) return REFUSED;
    const payload: Payload = { value, issues: [] };
    for (const ch of checks) {
      const when = ch._zod.def.when;
      if (when !== undefined && !when(payload)) continue;
      // An async check's answer is not known here: zod decides.
      if (ch._zod.check!(payload) instanceof Promise || payload.issues.length > 0) return REFUSED;
    }
    return payload.value;
  };
}

const isString: CompiledCheck = (v) => (typeof v === 'string' ? v : REFUSED);
const isNumber: CompiledCheck = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : REFUSED);
const isBoolean: CompiledCheck = (v) => (typeof v === 'boolean' ? v : REFUSED);

/** The key of an object or record that zod treats apart (its prototype, its constructor): left to zod. */
const awkward = (key: string): boolean => key === '__proto__' || key === 'constructor';

function objectCheck(shape: Record<string, Internals>, seen: Map<Internals, CompiledCheck>): CompiledCheck {
  const keys = Object.keys(shape);
  if (keys.some(awkward)) throw new Unsupported('a shape with an awkward key');
  const fields = keys.map((key) => {
    const field = shape[key]!;
    const { optin, optout } = field._zod;
    // Absent keys: zod leaves an optional field out, and refuses a required one.
    if (optin !== undefined && !(optin === 'optional' && optout === 'optional')) throw new Unsupported('a defaulted field');
    return { key, check: compiled(field, seen), optional: optin === 'optional' };
  });
  return (body) => {
    if (!isObject(body)) return REFUSED;
    for (const key in body) if (awkward(key)) return REFUSED;
    const out: Record<string, unknown> = {};
    for (const { key, check, optional } of fields) {
      if (!(key in body)) {
        if (optional) continue;
        return REFUSED;
      }
      const value = check(body[key]);
      if (value === REFUSED) return REFUSED;
      out[key] = value;
    }
    return out;
  };
}

function recordCheck(keyType: Internals, valueType: Internals, seen: Map<Internals, CompiledCheck>): CompiledCheck {
  // A key schema with a fixed set of keys (an enum) is matched otherwise by zod: left to it.
  if (keyType._zod.values !== undefined) throw new Unsupported('a record of fixed keys');
  const key = compiled(keyType, seen);
  const value = compiled(valueType, seen);
  return (body) => {
    if (!isObject(body)) return REFUSED;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(body)) {
      if (awkward(k)) return REFUSED;
      const outKey = key(k);
      if (outKey !== k) return REFUSED;
      const v = value(body[k]);
      if (v === REFUSED) return REFUSED;
      out[k] = v;
    }
    return out;
  };
}

/** The compiled check of one node (each node compiled once: a node met again reuses its check). */
function compiled(s: Internals, seen: Map<Internals, CompiledCheck>): CompiledCheck {
  const known = seen.get(s);
  if (known) return known;
  const def = s._zod.def;
  if (def.coerce) throw new Unsupported('a coercion');
  let test: CompiledCheck;
  switch (def.type) {
    case 'string':
      test = isString;
      break;
    case 'number':
      test = isNumber;
      break;
    case 'boolean':
      test = isBoolean;
      break;
    case 'enum': {
      const values = s._zod.values;
      if (values === undefined) throw new Unsupported('an enum without values');
      test = (v) => (values.has(v) ? v : REFUSED);
      break;
    }
    case 'optional': {
      if (s._zod.optin !== 'optional') throw new Unsupported('a defaulted optional');
      const inner = compiled(def.innerType!, seen);
      test = (v) => (v === undefined ? v : inner(v));
      break;
    }
    case 'object':
      if (def.catchall !== undefined) throw new Unsupported('a loose or strict object');
      test = objectCheck(def.shape ?? {}, seen);
      break;
    case 'record':
      if (def.mode !== undefined && def.mode !== 'strict') throw new Unsupported('a loose record');
      test = recordCheck(def.keyType!, def.valueType!, seen);
      break;
    default:
      throw new Unsupported(`a ${def.type}`);
  }
  const check = withChecks(test, checksOf(s));
  seen.set(s, check);
  return check;
}

/** The compiled checks, one per schema (null: the schema holds a part not compiled). */
const checks = new WeakMap<z.ZodType, CompiledCheck | null>();

/**
 * The check compiled from `schema` (compiled and kept on the first call), or undefined when the
 * schema holds a part this module does not compile: zod then validates its bodies.
 */
export function compileCheck(schema: z.ZodType): CompiledCheck | undefined {
  let check = checks.get(schema);
  if (check === undefined) {
    try {
      check = compiled(schema as unknown as Internals, new Map());
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      check = null;
    }
    checks.set(schema, check);
  }
  return check ?? undefined;
}

/** The check of `schema` if it was compiled (`compileCheck`), else undefined. */
export function compiledCheck(schema: z.ZodType): CompiledCheck | undefined {
  return checks.get(schema) ?? undefined;
}
