/**
 * Property-based test support (fast-check): bounded run counts (`FUZZ_RUNS`, default 100),
 * generators of JSON values, mutated bodies, query strings, cursors and headers, and the
 * checker that an answer is not a 5xx and that every 4xx is the spec's envelope whose
 * pointers exist in the request (or are '' or a header name).
 */
import fc from 'fast-check';

/** Runs per property: 100 in `npm test`, `FUZZ_RUNS=5000 npm run fuzz` for a long run. */
export const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 100));
/** Seed for reproducing a run: `FUZZ_SEED=123 npm run fuzz`. */
export const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
export const params = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };
/** `params` with a fraction of the runs, for properties whose every run creates several records. */
export const paramsScaled = (fraction: number): typeof params => ({ ...params, numRuns: Math.max(1, Math.round(RUNS * fraction)) });

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Awkward scalars: edges of the amount, long and odd strings, look-alikes of valid values. */
export const oddScalar: fc.Arbitrary<Json> = fc.constantFrom<Json>(
  '',
  ' ',
  0,
  -1,
  1,
  1.5,
  99_999_999,
  100_000_000,
  1e21,
  -0,
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  null,
  'USD',
  'usd',
  'XXX',
  'JPY',
  '4111111111111111',
  '12/30',
  '13/99',
  'http://127.0.0.1:9/x',
  'javascript:alert(1)',
  'x'.repeat(256),
  '💳',
  '\u0000',
  '../..',
  '{"a":1}',
  '2026-01-01T00:00:00Z',
  'a@b.co',
  'not-an-email',
);

/** Any JSON value, shallow. */
export const jsonValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 2, arbitrary: oddScalar },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> },
);

type Path = (string | number)[];

function pathsOf(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

export interface Mutation {
  at: number;
  op: 'delete' | 'set' | 'add';
  key: string;
  value: Json;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom<'delete' | 'set' | 'add'>('delete', 'set', 'set', 'add'),
  key: fc.oneof(
    fc.constantFrom('amount', 'currency', 'note', 'type', 'number', 'email', '__proto__', 'constructor'),
    fc.string({ maxLength: 12 }),
  ),
  value: jsonValue,
});

/** `base` with the mutations applied at paths chosen among its own (a copy). */
export function mutate(base: Json, mutations: Mutation[]): Json {
  let root = structuredClone(base);
  for (const m of mutations) {
    const paths = pathsOf(root);
    const path = paths[m.at % paths.length]!;
    if (path.length === 0) {
      if (m.op === 'set') root = m.value;
      else if (m.op === 'add' && root !== null && typeof root === 'object' && !Array.isArray(root))
        Object.defineProperty(root, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    let parent: Json = root;
    for (const key of path.slice(0, -1)) parent = (parent as Record<string, Json>)[key as string]!;
    const last = path[path.length - 1]!;
    const target = (parent as Record<string | number, Json>)[last]!;
    if (m.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete (parent as Record<string, Json>)[last as string];
    } else if (m.op === 'set') {
      (parent as Record<string | number, Json>)[last] = m.value;
    } else if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    } else {
      (parent as Record<string | number, Json>)[last] = m.value;
    }
  }
  return root;
}

/** A valid body, or one with one to three mutations. */
export function mutatedBody(valid: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return fc.tuple(valid, fc.array(mutation, { minLength: 0, maxLength: 3 })).map(([b, ms]) => mutate(b, ms));
}

/** Cursors: base64url of odd JSON, random base64url, and plain junk. */
export const cursor: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  fc
    .record({
      d: fc.oneof(fc.constantFrom('a', 'b'), fc.string({ maxLength: 2 })),
      k: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 4 }), fc.constant(null)),
    })
    .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  fc.base64String({ maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

/** A query string of known and unknown parameters with odd values. */
export const queryString: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.oneof(fc.constantFrom('limit', 'cursor', 'account_id', 'status', 'email'), fc.string({ minLength: 1, maxLength: 8 })),
  fc.oneof(fc.constantFrom('0', '1', '20', '100', '101', '-1', '1.5', 'abc', '', '1e3', ' 5'), cursor),
  { maxKeys: 4 },
);

export function toQuery(q: Record<string, string>): string {
  const s = new URLSearchParams(q).toString();
  return s ? `?${s}` : '';
}

export interface SentRequest {
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Names of the route's path parameters. */
  pathParams?: string[];
}

function resolves(value: unknown, pointer: string): { found: boolean; parentFound: boolean } {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = value;
  for (let i = 0; i < tokens.length; i += 1) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, tokens[i]!)) {
      return { found: false, parentFound: i === tokens.length - 1 && node !== null && typeof node === 'object' };
    }
    node = (node as Record<string, unknown>)[tokens[i]!];
  }
  return { found: true, parentFound: true };
}

const LOCATIONS = new Set(['body', 'query', 'path', 'header']);
const HEADER_POINTER = /^\/[a-z0-9-]+$/;

/**
 * Why an answer breaks the rules, or null when it keeps them: no 5xx; a 4xx is the
 * envelope (type, code, status, message, details[] with type, pointer, message, location)
 * and each pointer is '' or exists in the request (an absent field's parent exists), or
 * names a header.
 */
export function answerProblem(status: number, text: string, req: SentRequest): string | null {
  if (status >= 500) return `HTTP ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return null;
  let env: { type?: unknown; code?: unknown; status?: unknown; message?: unknown; details?: unknown };
  try {
    env = JSON.parse(text) as typeof env;
  } catch {
    return `HTTP ${status} is not JSON: ${text.slice(0, 200)}`;
  }
  if (
    env.type !== 'error' ||
    typeof env.code !== 'string' ||
    env.code === '' ||
    env.status !== status ||
    typeof env.message !== 'string' ||
    !Array.isArray(env.details)
  ) {
    return `HTTP ${status} is not the envelope: ${text.slice(0, 300)}`;
  }
  for (const d of env.details as { type?: unknown; pointer?: unknown; message?: unknown; location?: unknown }[]) {
    if (
      typeof d !== 'object' ||
      d === null ||
      typeof d.type !== 'string' ||
      typeof d.pointer !== 'string' ||
      typeof d.message !== 'string' ||
      typeof d.location !== 'string' ||
      !LOCATIONS.has(d.location)
    ) {
      return `HTTP ${status} has a malformed detail: ${JSON.stringify(d)}`;
    }
    const pointer = d.pointer;
    if (pointer === '') continue;
    if (!pointer.startsWith('/')) return `pointer ${JSON.stringify(pointer)} is not a JSON pointer`;
    if (d.location === 'header') {
      if (!HEADER_POINTER.test(pointer)) return `header pointer ${pointer} is not a header name`;
      continue;
    }
    if (d.location === 'path') {
      if (!(req.pathParams ?? []).includes(pointer.slice(1))) return `path pointer ${pointer} is not a parameter of the route`;
      continue;
    }
    const source = d.location === 'query' ? (req.query ?? {}) : req.body;
    const r = resolves(source, pointer);
    // A field that is absent (missing, or a required discriminator) is pointed at where it belongs.
    if (!r.found && !r.parentFound) return `${d.location} pointer ${pointer} (${d.type}) is not in the request: ${text.slice(0, 300)}`;
  }
  return null;
}
