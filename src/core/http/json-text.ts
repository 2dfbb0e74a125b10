/**
 * An answer whose JSON text is already made (kept per entity, or stored with an idempotency
 * key): the bytes and content type `c.json` would send for a value of type `T`.
 */
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The content type `c.json` sends. */
const JSON_CONTENT = Object.freeze({ 'Content-Type': 'application/json' } as const);

export function jsonText<T, S extends ContentfulStatusCode>(
  c: Context,
  text: string,
  status: S,
  headers?: Record<string, string>,
): TypedResponse<T, S, 'json'> {
  // Without headers of its own, the one content-type object (Hono and the Node server only read it).
  return c.body(text, status, headers === undefined ? JSON_CONTENT : { ...JSON_CONTENT, ...headers }) as unknown as TypedResponse<
    T,
    S,
    'json'
  >;
}
