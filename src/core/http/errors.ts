/**
 * The spec's error envelope, built in one place: `errorBody` for a `SandboxError`, the zod
 * validation hook that lists every failing field with its JSON pointer, and the handlers for
 * unknown paths (404), wrong methods (405) and unexpected exceptions (500, no stack trace).
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { SandboxError, badRequest, isStorageFull, jsonPointer, type ErrorDetail, type ErrorLocation } from '../domain/errors.js';
import type { BodyEnv } from './env.js';
import type { Logger } from '../log.js';

export interface ErrorEnvelope {
  type: 'error';
  code: string;
  status: number;
  message: string;
  details: ErrorDetail[];
  [extra: string]: unknown;
}

/** The envelope of a `SandboxError`. */
export function errorBody(err: SandboxError): ErrorEnvelope {
  return { type: 'error', code: err.code, status: err.status, message: err.message, details: err.details, ...err.extra };
}

/** Sends a `SandboxError` as the spec's envelope. */
export function errorResponse(c: Context, err: SandboxError): Response {
  return c.json(errorBody(err), err.status as ContentfulStatusCode);
}

type ZodIssueLike = ZodError['issues'][number];

/** The value at `path` inside `input`, or undefined. */
function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Maps a zod issue to the documented `details[].type` vocabulary (README "Error details"). */
function detailType(issue: ZodIssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      return 'type_error';
    case 'too_small':
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? 'length_error' : 'value_error';
    case 'invalid_format':
      // The spec's error table: a malformed id is "a UUID type error".
      return issue.format === 'guid' || issue.format === 'uuid' ? 'uuid' : 'format_error';
    case 'invalid_value':
      return 'enum_error';
    case 'unrecognized_keys':
      return 'unknown_field';
    default:
      return 'value_error';
  }
}

/**
 * Whether `issue` is a field left out (a required field sent as `null` arrives here absent:
 * `withoutNullOptionals` drops nulls on fields). Zod reports an absent enum as an invalid
 * value, not an invalid type: it is missing all the same.
 */
function isMissing(issue: ZodIssueLike, input: unknown): boolean {
  return (issue.code === 'invalid_type' || issue.code === 'invalid_value') && valueAt(input, issue.path) === undefined;
}

/**
 * Every issue of a zod error as a `details` element at `location`; `input` (what was
 * validated) tells a missing field from one of the wrong type.
 */
export function zodDetails(error: ZodError, location: ErrorLocation, input: unknown): ErrorDetail[] {
  return error.issues.map((issue) => {
    const missing = isMissing(issue, input);
    return {
      type: missing ? 'missing' : detailType(issue),
      pointer: jsonPointer(issue.path),
      message: missing ? (issue.message.startsWith('Invalid') ? 'Field required' : issue.message) : issue.message,
      location,
    };
  });
}

const LOCATIONS: Record<string, ErrorLocation> = { json: 'body', query: 'query', param: 'path', header: 'header' };

/** A failed validation of `target` (json, query, param, header) as a 400 envelope. */
export function validationHook(error: ZodError, c: Context<BodyEnv>, target: string): Response {
  const location = LOCATIONS[target] ?? 'body';
  let input: unknown;
  if (target === 'json') input = c.get('body');
  else if (target === 'query') input = c.req.query();
  else if (target === 'param') input = c.req.param();
  else if (target === 'header') input = c.req.header();
  return errorResponse(c, badRequest('Request failed validation', zodDetails(error, location, input)));
}

/** `app.onError` of a sandbox whose unexpected errors are logged to `logger`. */
export const errorHandler =
  (logger: Pick<Logger, 'error'>) =>
  (err: Error, c: Context): Response =>
    onError(err, c, logger);

/** `app.onError`: envelopes for known errors, a 500 without a stack trace otherwise (logged to `logger`). */
export function onError(err: Error, c: Context, logger: Pick<Logger, 'error'>): Response {
  if (err instanceof SandboxError) return errorResponse(c, err);
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 415) {
      return errorResponse(
        c,
        new SandboxError(
          415,
          'unsupported_media_type',
          `Unsupported Content-Type "${c.req.header('content-type') ?? ''}": send the body as application/json`,
          [{ type: 'content_type_error', pointer: '/content-type', message: 'Expected application/json', location: 'header' }],
        ),
      );
    }
    const code = status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : status === 413 ? 'request_too_large' : 'bad_request';
    return errorResponse(c, new SandboxError(status, code, err.message || 'Bad request'));
  }
  if (isStorageFull(err)) {
    // The disk is full: one line per failed request, no stack trace (nothing here is a bug).
    logger.error('request.failed', `${c.req.method} ${c.req.path} failed: ${err.message}`, { code: 'SQLITE_FULL' });
  } else logger.error('request.failed', `unexpected error on ${c.req.method} ${c.req.path}`, { err });
  return errorResponse(c, new SandboxError(500, 'server_error', 'The sandbox hit an unexpected error; it has been logged.'));
}

/** A route table for telling 404 from 405: each known path pattern with its methods. */
export class RouteTable {
  private readonly patterns: { re: RegExp; methods: Set<string> }[] = [];
  private readonly paths = new Set<string>();

  add(method: string, path: string): void {
    const plain = path.replace(/\/+$/, '') || '/';
    if (method.toUpperCase() !== 'ALL' && !plain.includes('*')) this.paths.add(plain);
    const source =
      '^' +
      path
        .replace(/\/+$/, '')
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[A-Za-z_]+(\{[^}]*\})?/g, '[^/]+') +
      '/?$';
    let entry = this.patterns.find((p) => p.re.source === source);
    if (!entry) {
      entry = { re: new RegExp(source), methods: new Set() };
      this.patterns.push(entry);
    }
    entry.methods.add(method.toUpperCase());
  }

  /** Methods allowed on `path`, empty when no route has that path. */
  methodsFor(path: string): string[] {
    const out = new Set<string>();
    for (const p of this.patterns) if (p.re.test(path)) for (const m of p.methods) out.add(m);
    return [...out];
  }

  /**
   * The known route nearest to `path` (a few letters off: `/v4/transaction` for
   * `/v4/transactions`), written with `{name}` for its parameters, or undefined when none is
   * close. A parameter segment matches any segment of `path`.
   */
  nearest(path: string): string | undefined {
    const asked = path.replace(/\/+$/, '').split('/');
    let best: { route: string; distance: number } | undefined;
    for (const route of this.paths) {
      const segments = route.split('/');
      if (segments.length !== asked.length) continue;
      const distances = segments.map((segment, i) => (segment.startsWith(':') ? 0 : editDistance(segment, asked[i]!)));
      // Each literal segment at most a third of its letters off (one at least), three in all.
      if (distances.some((d, i) => d > Math.max(1, Math.floor(segments[i]!.length / 3)))) continue;
      const distance = distances.reduce((sum, d) => sum + d, 0);
      if (distance > 0 && distance <= 3 && (!best || distance < best.distance)) best = { route, distance };
    }
    return best?.route.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, '{$1}');
  }
}

/** The Levenshtein distance of two strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** `app.notFound`: 405 with `Allow` when the path exists with other methods, else 404. */
export function notFoundHandler(routes: RouteTable) {
  return (c: Context): Response => {
    const methods = routes.methodsFor(c.req.path).filter((m) => m !== 'ALL');
    if (methods.length > 0) {
      c.header('Allow', methods.join(', '));
      return errorResponse(
        c,
        new SandboxError(
          405,
          'method_not_allowed',
          `Method ${c.req.method} is not allowed on ${c.req.path}; allowed: ${methods.join(', ')}`,
        ),
      );
    }
    const nearest = routes.nearest(c.req.path);
    const hint = nearest === undefined ? '' : `; did you mean ${nearest}?`;
    return errorResponse(c, new SandboxError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}${hint}`));
  };
}
