/**
 * Reading scenario files: file → JSON → `scenarioFileSchema`, with one-line errors that name
 * the file and the exact place of the problem (`rules[2] ("slow success").steps[0].outcome`),
 * so that a typo in a `--scenario` file stops start-up with a message a person can act on.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { STEP_KINDS, scenarioFileSchema, type ScenarioFile } from './schema.js';

/** A parsed scenario file and where it came from (the path as given, or another label). */
export type LoadedScenario = ScenarioFile & { source: string };

/** The default scenario shipped in the package (`scenarios/default.json`), absolute path. */
export const DEFAULT_SCENARIO_PATH: string = fileURLToPath(
  new URL('../../scenarios/default.json', import.meta.url),
);

/** A scenario file that cannot be used; the message is one line starting with the source. */
export class ScenarioError extends Error {
  /** The file (or label) the problem is in. */
  readonly source: string;

  constructor(source: string, problem: string) {
    super(`${source}: ${problem}`);
    this.name = 'ScenarioError';
    this.source = source;
  }
}

/**
 * Reads and validates one scenario file. `source` of the result is `path` as given.
 * @throws ScenarioError when the file is unreadable, not JSON, or not a valid scenario.
 */
export function loadScenarioFile(path: string): LoadedScenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(path, `cannot read the file: ${describeFsError(error)}`);
  }
  return parseScenarioText(text, path);
}

/**
 * Loads several scenario files, in order (the order in which rules are tried).
 * @throws ScenarioError for the first bad file, or when two files use the same `name`.
 */
export function loadScenarios(paths: string[]): LoadedScenario[] {
  const loaded: LoadedScenario[] = [];
  for (const path of paths) {
    const scenario = loadScenarioFile(path);
    const clash = loaded.find((other) => other.name === scenario.name);
    if (clash) {
      throw new ScenarioError(path, `name: "${scenario.name}" is already the name of ${clash.source}`);
    }
    loaded.push(scenario);
  }
  return loaded;
}

/**
 * Parses the text of a scenario file (a leading byte-order mark is allowed).
 * @throws ScenarioError with the line and column of a JSON syntax error.
 */
export function parseScenarioText(text: string, source: string): LoadedScenario {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    const located = locateJsonError(body);
    if (located) {
      const { line, column } = lineAndColumn(body, located.offset);
      throw new ScenarioError(source, `invalid JSON at line ${line}, column ${column}: ${located.reason}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new ScenarioError(source, `invalid JSON: ${oneLine(message)}`);
  }
  return parseScenario(json, source);
}

/**
 * Validates an already parsed scenario file.
 * @throws ScenarioError naming the first problem's path (and how many more there are).
 */
export function parseScenario(json: unknown, source: string): LoadedScenario {
  const result = scenarioFileSchema.safeParse(json);
  if (result.success) return { ...result.data, source };
  // Unknown keys first: a misspelt key also makes the intended one "missing".
  const problems = result.error.issues
    .flatMap((issue) => explain(issue, [], json))
    .sort((a, b) => Number(b.unknownKey ?? false) - Number(a.unknownKey ?? false));
  const [first, ...rest] = problems;
  const where = first && first.path.length > 0 ? `${formatPath(first.path, json)}: ` : '';
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
  throw new ScenarioError(source, `${where}${first?.message ?? 'invalid scenario file'}${more}`);
}

// ---- turning zod issues into problems ------------------------------------------------

type Path = PropertyKey[];
type Issue = z.core.$ZodIssue;
interface Problem {
  path: Path;
  message: string;
  unknownKey?: boolean;
}

function explain(issue: Issue, base: Path, json: unknown): Problem[] {
  const path = [...base, ...issue.path];
  const value = valueAt(json, path);
  const got = `, got ${describeValue(value)}`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = typeName(issue.expected);
      return [{ path, message: isMissing(json, path) ? `missing (expected ${expected})` : `expected ${expected}${got}` }];
    }
    case 'invalid_value':
      return [{ path, message: `expected ${orList(issue.values.map((v) => JSON.stringify(v)))}${got}` }];
    case 'unrecognized_keys': {
      const allowed = allowedKeysAt(path, json);
      return issue.keys.map((key) => {
        const suggestion = closest(key, allowed);
        const hint = suggestion
          ? ` (did you mean "${suggestion}"?)`
          : allowed.length > 0
            ? ` (allowed: ${allowed.map((k) => `"${k}"`).join(', ')})`
            : '';
        return { path: [...path, key], message: `unknown key${hint}`, unknownKey: true };
      });
    }
    case 'invalid_union':
      return explainUnion(issue, path, json);
    case 'too_small':
    case 'too_big': {
      const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      if (issue.origin === 'array') {
        const word = issue.code === 'too_small' ? 'at least' : 'at most';
        return [{ path, message: `expected ${word} ${bound} item${bound === 1 ? '' : 's'}` }];
      }
      if (issue.origin === 'string') {
        if (issue.code === 'too_small' && bound === 1) return [{ path, message: 'must not be empty' }];
        const word = issue.code === 'too_small' ? 'at least' : 'at most';
        return [{ path, message: `expected ${word} ${bound} characters` }];
      }
      const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      return [{ path, message: `expected a number ${op} ${bound}${got}` }];
    }
    case 'invalid_format':
      return [{ path, message: `${issue.message}${got}` }];
    default:
      return [{ path, message: issue.message }];
  }
}

/** Picks the union branch the author meant and explains its problems. */
function explainUnion(issue: Extract<Issue, { code: 'invalid_union' }>, path: Path, json: unknown): Problem[] {
  const value = valueAt(json, path);
  const isStep = path.length >= 2 && path[path.length - 2] === 'steps' && typeof path[path.length - 1] === 'number';
  if (isStep && isPlainObject(value)) {
    const present = STEP_KINDS.filter((kind) => kind in value);
    if (present.length === 1) {
      const branch = issue.errors[STEP_KINDS.indexOf(present[0])] ?? [];
      return branch.flatMap((inner) => explain(inner, path, json));
    }
    if (present.length > 1) {
      return [{ path, message: `a step has exactly one of the keys ${orList(STEP_KINDS.map((k) => `"${k}"`))}, got ${andList(present.map((k) => `"${k}"`))}` }];
    }
    const keys = Object.keys(value);
    for (const key of keys) {
      const suggestion = closest(key, STEP_KINDS);
      if (suggestion) return [{ path: [...path, key], message: `unknown key (did you mean "${suggestion}"?)`, unknownKey: true }];
    }
    const got = keys.length > 0 ? andList(keys.map((k) => JSON.stringify(k))) : 'no key';
    return [{ path, message: `${issue.message}, got ${got}` }];
  }
  const typeFits = issue.errors.filter(
    (branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
  );
  if (typeFits.length === 1 && typeFits[0]) return typeFits[0].flatMap((inner) => explain(inner, path, json));
  return [{ path, message: `${issue.message}, got ${describeValue(value)}` }];
}

/** Keys the schema allows for the object at `path` (for "did you mean"). */
function allowedKeysAt(path: Path, json: unknown): string[] {
  let schema: z.core.$ZodType | undefined = scenarioFileSchema;
  for (let depth = 0; depth <= path.length && schema; depth++) {
    schema = unwrap(schema, valueAt(json, path.slice(0, depth)));
    if (depth === path.length) break;
    const segment = path[depth];
    if (schema instanceof z.ZodObject && typeof segment === 'string') {
      const shape: Record<string, z.core.$ZodType> = schema.shape;
      schema = shape[segment];
    } else if (schema instanceof z.ZodArray) {
      schema = schema.element;
    } else if (schema instanceof z.ZodRecord) {
      schema = schema.valueType;
    } else {
      schema = undefined;
    }
  }
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** Strips optional/default wrappers; for a union, the object branch sharing most keys with `value`. */
function unwrap(schema: z.core.$ZodType, value: unknown): z.core.$ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return unwrap(schema.unwrap(), value);
  if (schema instanceof z.ZodUnion) {
    const keys = isPlainObject(value) ? Object.keys(value) : [];
    let best: z.core.$ZodType | undefined;
    let bestScore = -1;
    for (const option of schema.options) {
      if (!(option instanceof z.ZodObject)) continue;
      const score = keys.filter((key) => key in option.shape).length;
      if (score > bestScore) {
        best = option;
        bestScore = score;
      }
    }
    return best ?? schema;
  }
  return schema;
}

// ---- small formatting pieces ------------------------------------------------------------

/** `rules[2] ("slow success").steps[0].outcome` */
function formatPath(path: Path, json: unknown): string {
  let out = '';
  path.forEach((segment, i) => {
    if (typeof segment === 'number') {
      out += `[${segment}]`;
      if (i === 1 && path[0] === 'rules') {
        const name = valueAt(json, ['rules', segment, 'name']);
        if (typeof name === 'string') out += ` (${JSON.stringify(name)})`;
      }
    } else {
      const key = String(segment);
      out += /^[A-Za-z_$][\w$]*$/.test(key) ? `${i === 0 ? '' : '.'}${key}` : `[${JSON.stringify(key)}]`;
    }
  });
  return out;
}

function valueAt(json: unknown, path: Path): unknown {
  let current: unknown = json;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isPlainObject(current) && typeof segment === 'string') current = current[segment];
    else return undefined;
  }
  return current;
}

function isMissing(json: unknown, path: Path): boolean {
  const last = path[path.length - 1];
  const parent = valueAt(json, path.slice(0, -1));
  return typeof last === 'string' && isPlainObject(parent) && !(last in parent);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(expected: string): string {
  const names: Record<string, string> = {
    int: 'an integer',
    number: 'a number',
    string: 'a string',
    boolean: 'true or false',
    object: 'an object',
    record: 'an object',
    array: 'an array',
  };
  return names[expected] ?? expected;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function andList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The candidate within a small edit distance of `word`, if any. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(word.length / 2)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function describeFsError(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return oneLine(error instanceof Error ? error.message : String(error));
}

// ---- locating JSON syntax errors ----------------------------------------------------------
// V8's messages give a position for some errors and a source snippet for others; this small
// scanner finds the offset of the first error itself, so every message has a line and column.

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/** The offset and reason of the first JSON syntax error in `text`, or null if none is found. */
function locateJsonError(text: string): { offset: number; reason: string } | null {
  let i = 0;
  const found = (): string => (i >= text.length ? 'the end of the file' : JSON.stringify(text[i]));
  const fail = (expected: string): never => {
    throw new JsonSyntaxError(i, `expected ${expected}, found ${found()}`);
  };
  const skipSpace = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const string = (): void => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) throw new JsonSyntaxError(start, 'unterminated string');
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const escape = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(escape) && escape !== '') i += 2;
        else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else throw new JsonSyntaxError(i, 'invalid escape in string');
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) throw new JsonSyntaxError(i, 'line break or control character inside a string');
      i++;
    }
  };
  const value = (): void => {
    skipSpace();
    const ch = text[i];
    if (ch === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail('a property name in double quotes');
        string();
        skipSpace();
        if (text[i] !== ':') fail('":"');
        i++;
        value();
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('"," or "}"');
      }
    }
    if (ch === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('"," or "]"');
      }
    }
    if (ch === '"') return string();
    const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    number.lastIndex = i;
    const match = number.exec(text);
    if (match) {
      i += match[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    fail('a value');
  };
  try {
    value();
    skipSpace();
    if (i < text.length) fail('the end of the file');
    return null;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { offset: error.offset, reason: error.reason };
    return null;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
