/**
 * The statuses every operation can answer whatever its route says, added to the OpenAPI
 * document in one place:
 * - 431 on every operation: request line and headers over `--max-header-size` (server.ts);
 * - /v4: 429 and 503 with `Retry-After` (`X-Sandbox-Fault`, scenario `api_fault` steps), and
 *   413 on every write (the body gate's `--body-limit`);
 * - /_sandbox writes: 413 (the same body gate) and 415 (a browser POST without a JSON content
 *   type, `http/security.ts`).
 * - 400 on every operation that takes a body and on every /v4 and /_sandbox write (the body
 *   gate refuses malformed JSON before the route runs, even where the route reads no body);
 * - 500 on every operation: an unexpected error answers the spec's envelope, never a stack.
 * A 405 is never the answer to a documented operation (it answers a method the path does
 * not document), so it is described once, in the document's description, not per operation.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env.js';

type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>['getOpenAPI31Document']>;

const WRITES = ['post', 'put', 'patch', 'delete'] as const;
const METHODS = ['get', ...WRITES] as const;

const error = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying.', required: false, schema: { type: 'integer' as const, minimum: 0 } },
};

/** Adds the transport statuses to every operation of `doc` (paths as served, `/v4` included). */
export function withTransportResponses(doc: OpenApiDocument): OpenApiDocument {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item) continue;
    const api = path === '/v4' || path.startsWith('/v4/') || path === '/buyers';
    const control = path.startsWith('/_sandbox/');
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.responses) continue;
      const responses = op.responses;
      const write = (WRITES as readonly string[]).includes(method);
      if (write && (api || control)) {
        responses['413'] ??= {
          description: 'request_too_large: the body is larger than --body-limit (1 MiB by default); the connection is closed',
          content: error,
        };
      }
      if (write && control) {
        responses['415'] ??= {
          description: 'unsupported_media_type: a browser POST without Content-Type: application/json or X-Sandbox-Request',
          content: error,
        };
      }
      if (api) {
        responses['429'] ??= {
          description: 'too_many_requests: asked for with X-Sandbox-Fault: 429 (or a scenario api_fault step)',
          headers: retryAfter,
          content: error,
        };
        responses['503'] ??= {
          description: 'service_unavailable: asked for with X-Sandbox-Fault: 503 (or a scenario api_fault step)',
          headers: retryAfter,
          content: error,
        };
      }
      if (op.requestBody !== undefined || (write && (api || control))) {
        responses['400'] ??= { description: 'bad_request: the body is not valid JSON, or fails validation', content: error };
      }
      responses['500'] ??= {
        description: "server_error: the sandbox hit an unexpected error (logged); the spec's envelope, no stack trace",
        content: error,
      };
      responses['431'] ??= { description: 'request_header_too_large: request line and headers over --max-header-size', content: error };
    }
  }
  return doc;
}
