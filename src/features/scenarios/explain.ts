/**
 * Explains why a parsed scenario file fails `scenarioFileSchema`, in one line a person can
 * act on: the path of the first problem with the rule's name
 * (`rules[2] ("slow success").steps[0].outcome`), what was expected and what was found, a
 * "did you mean" for a misspelt key, and how many more problems there are.
 */
import { z } from 'zod';
import { scenarioFileSchema } from './schema.js';
import { STEP_KINDS } from './step-schema.js';

/**
 * The one-line explanation of a failed validation of `json` (the file's parsed value).
 * Unknown keys come first: a misspelt key also makes the intended one "missing".
 */
export function explainScenarioIssues(issues: readonly z.core.$ZodIssue[], json: unknown): string {
  const [first, ...rest] = scenarioProblems(issues, json);
  const where = first && first.path.length > 0 ? `${formatPath(first.path, json)}: ` : '';
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
  return `${where}${first?.message ?? 'invalid scenario file'}${more}`;
}

type Path = PropertyKey[];
type Issue = z.core.$ZodIssue;

/** One problem of a scenario file: where (keys and indexes from the top) and what. */
export interface ScenarioProblem {
  path: Path;
  message: string;
  unknownKey?: boolean;
}
type Problem = ScenarioProblem;

/** Every problem of a failed validation, worded as in the one-line explanation, unknown keys first. */
export function scenarioProblems(issues: readonly z.core.$ZodIssue[], json: unknown): ScenarioProblem[] {
  return issues.flatMap((issue) => explain(issue, [], json)).sort((a, b) => Number(b.unknownKey ?? false) - Number(a.unknownKey ?? false));
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
      return [
        {
          path,
          message: `a step has exactly one of the keys ${orList(STEP_KINDS.map((k) => `"${k}"`))}, got ${andList(present.map((k) => `"${k}"`))}`,
        },
      ];
    }
    const keys = Object.keys(value);
    for (const key of keys) {
      const suggestion = closest(key, STEP_KINDS);
      if (suggestion) return [{ path: [...path, key], message: `unknown key (did you mean "${suggestion}"?)`, unknownKey: true }];
    }
    const got = keys.length > 0 ? andList(keys.map((k) => JSON.stringify(k))) : 'no key';
    return [{ path, message: `${issue.message}, got ${got}` }];
  }
  const typeFits = issue.errors.filter((branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0));
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
