/**
 * The pass over a request body compiled from its zod schema, once per schema (`bodyPass`; a
 * route compiles its schemas when it is built): the schema's shape is read once into a plan
 * (which keys each object knows, whether it drops the others, which values are leaves), so a
 * request's walk asks no `instanceof` of zod and unwraps no wrapper. One walk beside the plan
 * gives what the layers after it read:
 *
 * - the body without `null` on a field of an object of the schema (`absent-nulls.ts` says why);
 * - the pointers of its unknown fields, in the body's order (or undefined where the schema holds
 *   a part the plan cannot see through: a union, a transform, a record of objects);
 * - its canonical JSON (`idempotency.ts` `canonicalJson` of that body: keys sorted at every
 *   depth), the text the idempotency fingerprint and the go-live report hash.
 *
 * zod stays the source of the schema, of the OpenAPI document and of the validation's answers:
 * the validated value, and each refusal's details, come from the schema itself.
 */
import { z } from '@hono/zod-openapi';
import { jsonPointer } from '../../domain/errors.js';
import { canonicalJson } from '../idempotency.js';
import { memberRule, scannedMember, scanValue, type MemberRule, type Scan, type ScannedBody } from '../redact.js';
import { withoutNullOptionals } from './absent-nulls.js';
import { compileParse } from './fast-parse.js';

/** What one walk gives (see the module's comment). */
export interface PassedBody {
  value: unknown;
  unknown: string[] | undefined;
  canonical: string;
  /** The body as the request log keeps it, and whether it carries card data: given when asked for (`log`). */
  logged?: ScannedBody;
}

/**
 * A request body's pass over one schema. With `log`, the same walk also makes the request
 * log's text of the body and finds its card data (`redact.ts` `scannedBody` of `value`, with
 * strings cut to `log.maxString`): each known key's rule is read from the plan.
 */
export type BodyPass = (body: unknown, log?: { maxString: number }) => PassedBody;

/** Schema types whose output is the input itself (no key of an object inside them is dropped). */
const LEAVES = new Set(['string', 'number', 'boolean', 'bigint', 'enum', 'literal', 'unknown', 'any', 'null']);

/** One node of a plan: what the walk does with a value under this part of the schema. */
type Plan = ObjectPlan | ArrayPlan | UnionPlan | OtherPlan;

interface Common {
  /** A transform or preprocess under the wrappers: what it keeps is not known beforehand. */
  piped: boolean;
}
interface ObjectPlan extends Common {
  kind: 'object';
  /** Each known key's plan (a Map: `__proto__` and `constructor` are keys like any other). */
  fields: Map<string, Plan>;
  /** Each known key's rule in the request log (`redact.ts` `memberRule`), made once. */
  rules: Map<string, MemberRule>;
  /** The known keys in canonical order (`Array#sort`'s), each as JSON text, and each key's place in it. */
  order: { key: string; quoted: string }[];
  place: Map<string, number>;
  /** A strip object drops the keys it does not know (a loose one keeps them, a strict one refuses them). */
  strips: boolean;
}
interface ArrayPlan extends Common {
  kind: 'array';
  element: Plan;
}
interface UnionPlan extends Common {
  kind: 'union';
  options: z.ZodType[];
}
interface OtherPlan extends Common {
  kind: 'other';
  /** A leaf type, or a record of leaves: a value under it is kept whole, and seen through. */
  leaf: boolean;
  /** A record whose values are leaves: an object under it is kept whole, and seen through. */
  leafRecord: boolean;
  /** A record (of anything): a primitive under it is a type error zod reports, not a blind spot. */
  record: boolean;
}

const typeOf = (s: z.ZodType): string => (s as unknown as { _zod: { def: { type: string } } })._zod.def.type;

/** The schema under optional, default, nullable and readonly wrappers (and a pipe's output), and whether a pipe was met before any other type. */
function unwrapped(schema: z.ZodType): { s: z.ZodType; piped: boolean } {
  let s: z.ZodType = schema;
  let piped: boolean | undefined;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault || s instanceof z.ZodReadonly)
      s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) {
      piped ??= true;
      s = s.out as z.ZodType;
    } else return { s, piped: piped ?? false };
  }
}

/** The plan of `schema`, each sub-schema planned once (a schema met again reuses its plan). */
function plan(schema: z.ZodType, seen: Map<z.ZodType, Plan>): Plan {
  const known = seen.get(schema);
  if (known) return known;
  const { s, piped } = unwrapped(schema);
  if (s instanceof z.ZodObject) {
    const node: ObjectPlan = {
      kind: 'object',
      piped,
      fields: new Map(),
      rules: new Map(),
      order: [],
      place: new Map(),
      strips: (s as unknown as { _zod: { def: { catchall?: unknown } } })._zod.def.catchall === undefined,
    };
    seen.set(schema, node);
    for (const [key, field] of Object.entries(s.shape as Record<string, z.ZodType>)) {
      node.fields.set(key, plan(field, seen));
      node.rules.set(key, memberRule(key));
    }
    node.order = [...node.fields.keys()].sort().map((key) => ({ key, quoted: JSON.stringify(key) }));
    node.order.forEach(({ key }, i) => node.place.set(key, i));
    return node;
  }
  if (s instanceof z.ZodArray) {
    const node = { kind: 'array', piped } as ArrayPlan;
    seen.set(schema, node);
    node.element = plan(s.element as z.ZodType, seen);
    return node;
  }
  if (s instanceof z.ZodUnion) return { kind: 'union', piped, options: s.options as z.ZodType[] };
  const record = s instanceof z.ZodRecord;
  return {
    kind: 'other',
    piped,
    leaf: LEAVES.has(typeOf(s)),
    leafRecord: record && LEAVES.has(typeOf(s.valueType as z.ZodType)),
    record,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Sets an own key (`__proto__` included, as JSON.parse makes it) without touching the prototype. */
const put = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
};

/**
 * One walk's state: the pointers found, whether the plan saw through everywhere, the canonical
 * text of the value last walked; and while the log's scan is on (`scan`), the log's text of it.
 */
interface Walk {
  unknown: string[];
  exact: boolean;
  text: string;
  scan: Scan | undefined;
  log: string;
}

/** The canonical JSON of a primitive (what `canonicalJson` writes for it). */
const primitiveText = (value: unknown): string => JSON.stringify(value) ?? 'null';

/**
 * One step: the value as the schema will see it; its canonical text is left in `walk.text`
 * and, while the log's scan is on, its log text in `walk.log`. `path` is changed in place and
 * restored (its length is the value's depth).
 */
function step(node: Plan, value: unknown, walk: Walk, path: (string | number)[]): unknown {
  if (node.piped) walk.exact = false;
  if (node.kind === 'object' && isRecord(value)) {
    const out: Record<string, unknown> = {};
    // The canonical text of each known member by its place in canonical order; unknown members apart.
    const texts = new Array<string | undefined>(node.order.length);
    let others: Map<string, string> | undefined;
    const scan = walk.scan;
    let log = '{';
    for (const key of Object.keys(value)) {
      const field = node.fields.get(key);
      const item = value[key];
      if (field === undefined) {
        put(out, key, item);
        (others ??= new Map()).set(key, canonicalJson(item));
        if (node.strips) walk.unknown.push(jsonPointer([...path, key]));
        if (scan !== undefined)
          log = logged(log, memberRule(key), key, item, scan, path.length, () => scanValue(item, scan, path.length + 1));
      } else if (item === null) continue;
      else {
        // A member the log does not walk (left out, or masked whole) is not scanned on the way down.
        const rule = scan === undefined ? undefined : node.rules.get(key)!;
        const member = rule === undefined ? undefined : scannedMember(rule, key, item, scan!, path.length);
        if (member !== undefined) walk.scan = undefined;
        path.push(key);
        put(out, key, step(field, item, walk, path));
        path.pop();
        walk.scan = scan;
        texts[node.place.get(key)!] = walk.text;
        if (rule !== undefined && member !== null) log += (log.length === 1 ? '' : ',') + rule.quoted + ':' + (member ?? walk.log);
      }
    }
    walk.text = others === undefined ? knownMembersText(node, texts) : membersText(node, texts, others);
    walk.log = log + '}';
    return out;
  }
  if (node.kind === 'array' && Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    let text = '[';
    let log = '[';
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      out[i] = step(node.element, value[i], walk, path);
      path.pop();
      text += (i === 0 ? '' : ',') + walk.text;
      if (walk.scan !== undefined) log += (i === 0 ? '' : ',') + walk.log;
    }
    walk.text = text + ']';
    walk.log = log + ']';
    return out;
  }
  let kept = value;
  if (node.kind === 'union' && isRecord(value)) {
    walk.exact = false;
    walk.text = '';
    // A union of objects (none in request bodies today): the first option the value fits after the pass.
    for (const option of node.options) {
      const candidate = withoutNullOptionals(option, value);
      if (option.safeParse(candidate).success) {
        walk.text = canonicalJson(candidate);
        kept = candidate;
        break;
      }
    }
    if (walk.text === '') walk.text = canonicalJson(value);
  } else if (value !== null && typeof value === 'object') {
    // A record of leaves keeps every key and value; anything else inside is not seen through.
    if (!(node.kind === 'other' && (node.leaf || node.leafRecord))) walk.exact = false;
    walk.text = canonicalJson(value);
  } else {
    // A primitive where an object, an array, a record or a leaf is expected is a type error zod reports.
    if (node.kind === 'union' || (node.kind === 'other' && !node.leaf && !node.record)) walk.exact = false;
    walk.text = primitiveText(value);
  }
  if (walk.scan !== undefined) walk.log = scanValue(kept, walk.scan, path.length);
  return kept;
}

/** The canonical text of an object whose members are all known: `texts` in the plan's order. */
function knownMembersText(node: ObjectPlan, texts: (string | undefined)[]): string {
  let text = '{';
  for (let i = 0; i < texts.length; i++) {
    const member = texts[i];
    if (member !== undefined) text += (text.length === 1 ? '' : ',') + node.order[i]!.quoted + ':' + member;
  }
  return text + '}';
}

/** The canonical text of an object with unknown members (`others`) beside its known ones: every key sorted together. */
function membersText(node: ObjectPlan, texts: (string | undefined)[], others: Map<string, string>): string {
  const all = new Map(others);
  texts.forEach((member, i) => {
    if (member !== undefined) all.set(node.order[i]!.key, member);
  });
  const keys = [...all.keys()].sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) text += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + all.get(keys[i]!)!;
  return text + '}';
}

/** `log` (an object's log text so far) with the member `key` of an unknown field added: its value's text is `valueText()` unless the rule says otherwise. */
function logged(log: string, rule: MemberRule, key: string, v: unknown, scan: Scan, depth: number, valueText: () => string): string {
  const member = scannedMember(rule, key, v, scan, depth);
  if (member === null) return log;
  return log + (log.length === 1 ? '' : ',') + rule.quoted + ':' + (member ?? valueText());
}

/** The compiled passes, one per schema. */
const compiled = new WeakMap<z.ZodType, BodyPass>();

/** The pass of `schema` if it was compiled (`bodyPass`), else undefined. */
export function compiledBodyPass(schema: z.ZodType): BodyPass | undefined {
  return compiled.get(schema);
}

/**
 * The pass of `schema`, compiled and kept on its first call: a route calls it for its schemas
 * when it is built. zod's parse of the schema is compiled with it (`fast-parse.ts`). A schema
 * made for one request (one that depends on the sandbox clock) is not compiled: its body takes
 * the walk beside the schema (`absent-nulls.ts`) instead.
 */
export function bodyPass(schema: z.ZodType): BodyPass {
  let pass = compiled.get(schema);
  if (pass === undefined) {
    compileParse(schema);
    const root = plan(schema, new Map());
    pass = (body, log) => {
      const scan: Scan | undefined = log === undefined ? undefined : { cardData: false, maxString: log.maxString };
      const walk: Walk = { unknown: [], exact: true, text: '', scan, log: '' };
      const value = step(root, body, walk, []);
      const passed: PassedBody = { value, unknown: walk.exact ? walk.unknown : undefined, canonical: walk.text };
      if (scan !== undefined) passed.logged = { json: walk.log, cardData: scan.cardData };
      return passed;
    };
    compiled.set(schema, pass);
  }
  return pass;
}
