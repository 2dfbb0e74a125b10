/**
 * Request-body gate for writes: a streaming size limit (413, reading stops at the limit
 * whether or not a `Content-Length` was sent), an empty body (with or without a JSON
 * content type) passed on as no body, `Content-Type: application/json` (400),
 * well-formed JSON (400 with the parser's position), a JSON object (400) nested at most
 * `MAX_JSON_DEPTH` deep (400 pointing at the first value too deep). What passes is kept as
 * the `body` variable, parsed once for the unknown-field warnings, the validation details
 * and the idempotency fingerprint.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { SandboxError, badRequest } from '../domain/errors.js';
import type { BodyEnv } from './env.js';
import { jsonPointer } from '../domain/errors.js';
import { nodeBindings } from './node-env.js';
import { readStreamAtMost } from '../bounded-stream.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;.*)?$/i;

/** Deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64;

function tooLarge(limit: number): SandboxError {
  return new SandboxError(413, 'request_too_large', `The request body is larger than the sandbox's limit of ${limit} bytes`, [
    { type: 'too_large', pointer: '', message: `Body exceeds ${limit} bytes`, location: 'body' },
  ]);
}

/**
 * Reads the request body as text, at most `limit` bytes: past the limit it stops reading
 * (the rest is never buffered) and throws 413; the answer closes the connection.
 */
export async function readBodyLimited(c: Context, limit: number): Promise<string> {
  const declared = declaredLength(c);
  if (declared !== undefined && declared <= limit) {
    // On a Node server a body of a declared length within the limit is read straight from the
    // socket (@hono/node-server's direct read: no web stream), exactly that many bytes.
    const bytes = Buffer.from(await c.req.raw.arrayBuffer());
    if (bytes.byteLength > limit) {
      c.header('connection', 'close');
      throw tooLarge(limit);
    }
    return cacheText(c, bytes.toString('utf8'));
  }
  // A declared Content-Length over the limit meets the same check after `limit` bytes: the
  // stream is opened either way, so the server stops reading it rather than draining it.
  const stream = c.req.raw.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const bytes = await readStreamAtMost(reader, limit);
  if (bytes === null) {
    reader.releaseLock(); // stop reading: the socket is paused, then closed after the 413
    c.header('connection', 'close');
    throw tooLarge(limit);
  }
  return cacheText(c, bytes.toString('utf8'));
}

/** Later readers (validators, the request log) get the text already read. */
function cacheText(c: Context, text: string): string {
  (c.req as unknown as { bodyCache: Record<string, Promise<unknown>> }).bodyCache = { text: Promise.resolve(text) };
  return text;
}

/**
 * The request's `Content-Length` when it arrived on a Node server (`@hono/node-server`, whose
 * HTTP parser reads exactly that many body bytes) and is a plain decimal; otherwise undefined.
 */
function declaredLength(c: Context): number | undefined {
  if (!nodeBindings(c)) return undefined;
  const header = c.req.header('content-length');
  if (header === undefined || !/^\d{1,15}$/.test(header)) return undefined;
  return Number(header);
}

/**
 * The pointer of the first value nested deeper than `max` arrays/objects, or undefined. The
 * walk never goes more than `max` levels down, so no depth of input can overflow the stack;
 * no path is built unless a value is too deep. Children are visited last first (the order of
 * the stack this walk replaced, so the same value is reported).
 */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH): string | undefined {
  const path = tooDeepPath(value, max, 0);
  return path === undefined ? undefined : jsonPointer(path.reverse());
}

/** The path (innermost step first) to the first value too deep under `node`, at `depth`. */
function tooDeepPath(node: unknown, max: number, depth: number): (string | number)[] | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (depth >= max) return [];
  if (Array.isArray(node)) {
    for (let i = node.length - 1; i >= 0; i--) {
      const path = tooDeepPath(node[i], max, depth + 1);
      if (path !== undefined) return (path.push(i), path);
    }
    return undefined;
  }
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = keys.length - 1; i >= 0; i--) {
    const path = tooDeepPath(record[keys[i]!], max, depth + 1);
    if (path !== undefined) return (path.push(keys[i]!), path);
  }
  return undefined;
}

/**
 * Whether JSON `text` has more than `max` opening brackets (`{` or `[`, inside strings too):
 * without that many, no value in it can be nested deeper than `max`.
 */
export function mayNestDeeperThan(text: string, max: number): boolean {
  let openings = 0;
  for (let i = text.indexOf('{'); i !== -1 && openings <= max; i = text.indexOf('{', i + 1)) openings++;
  for (let i = text.indexOf('['); i !== -1 && openings <= max; i = text.indexOf('[', i + 1)) openings++;
  return openings > max;
}

/** The body gate's options, as Hono's `bodyLimit({ maxSize })` takes them. */
export interface JsonBodyOptions {
  /** The largest body in bytes (`--body-limit`, default 1 MiB). */
  maxSize: number;
}

/** Body gate for POST/PUT/PATCH, for any router whose context has the `body` variable. */
export function jsonBody<E extends BodyEnv = BodyEnv>({ maxSize }: JsonBodyOptions): MiddlewareHandler<E> {
  return (c, next) => gate(c as unknown as Context<BodyEnv>, next, maxSize);
}

async function gate(c: Context<BodyEnv>, next: () => Promise<void>, limit: number): Promise<void> {
  const method = c.req.method;
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
  const text = await readBodyLimited(c, limit);
  const contentType = c.req.header('content-type');
  // A POST with no body at all (e.g. /cancel) needs no content type; an empty body sent with a
  // JSON content type is no body either: a route whose body is
  // optional takes it as `{}`, one that needs a body says it is missing.
  if (text.trim().length === 0 && (!contentType || JSON_TYPE.test(contentType))) return next();
  if (!contentType || !JSON_TYPE.test(contentType)) {
    throw badRequest(`Unsupported Content-Type "${contentType ?? ''}": send the body as application/json`, [
      { type: 'content_type_error', pointer: '/content-type', message: 'Expected application/json', location: 'header' },
    ]);
  }
  // `application/json;` (an empty parameter list) is JSON: the router's own media-type check
  // would answer it 415, so the header it reads is given in its plain form.
  if (!/^application\/([\w.-]+\+)?json$/i.test(contentType.trim())) normalizeContentType(c);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'invalid JSON';
    throw badRequest(`Malformed JSON in request body: ${reason}`, [
      { type: 'json_invalid', pointer: '', message: reason, location: 'body' },
    ]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('The request body must be a JSON object', [
      { type: 'type_error', pointer: '', message: 'Expected a JSON object', location: 'body' },
    ]);
  }
  // A value is nested no deeper than the text has `{` and `[`: most bodies need no walk.
  const deep = mayNestDeeperThan(text, MAX_JSON_DEPTH) ? tooDeep(parsed) : undefined;
  if (deep !== undefined) {
    throw badRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`, [
      { type: 'value_error', pointer: deep, message: `Nested deeper than ${MAX_JSON_DEPTH} levels`, location: 'body' },
    ]);
  }
  c.set('body', parsed);
  return next();
}

/** Rewrites the request's content type to plain `application/json` (what the validators match). */
function normalizeContentType(c: Context): void {
  const raw = c.req.raw;
  const headers = new Headers(raw.headers);
  headers.set('content-type', 'application/json');
  c.req.raw = new Request(raw.url, { method: raw.method, headers, signal: raw.signal });
}
