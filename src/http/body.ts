/**
 * Request-body gate for writes: size limit (413), `Content-Type: application/json` (400),
 * well-formed JSON (400 with the parser's position) and a JSON object (400). What passes is
 * kept as the `body` variable, parsed once for the unknown-field warnings, the validation
 * details and the idempotency fingerprint.
 */
import type { MiddlewareHandler } from 'hono';
import { SandboxError, badRequest } from '../domain/errors.js';
import type { AppEnv } from './env.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;.*)?$/i;

function tooLarge(limit: number): SandboxError {
  return new SandboxError(413, 'request_too_large', `The request body is larger than the sandbox's limit of ${limit} bytes`, [
    { type: 'too_large', pointer: '', message: `Body exceeds ${limit} bytes`, location: 'body' },
  ]);
}

/** Body gate for POST/PUT/PATCH; the limit is `--body-limit` (default 1 MiB). */
export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method;
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
  const limit = c.get('sandbox').options.bodyLimit;
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const text = await c.req.text();
  if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
  const contentType = c.req.header('content-type');
  // A POST with no body at all (e.g. /cancel) needs no content type.
  if (text.length === 0 && !contentType) return next();
  if (!contentType || !JSON_TYPE.test(contentType)) {
    throw badRequest(`Unsupported Content-Type "${contentType ?? ''}": send the body as application/json`, [
      { type: 'content_type_error', pointer: '/content-type', message: 'Expected application/json', location: 'header' },
    ]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'invalid JSON';
    throw badRequest(`Malformed JSON in request body: ${reason}`, [{ type: 'json_invalid', pointer: '', message: reason, location: 'body' }]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('The request body must be a JSON object', [
      { type: 'type_error', pointer: '', message: 'Expected a JSON object', location: 'body' },
    ]);
  }
  c.set('body', parsed);
  return next();
};
