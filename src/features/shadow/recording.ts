/**
 * `--record FILE`: one JSON line per exchange, the request and the upstream's answer, with card
 * data and keys redacted as in the request log (card numbers masked to their last four digits,
 * security codes dropped, API keys, JWTs and bearer tokens replaced, secret query parameters
 * redacted).
 */
import { z } from 'zod';
import { redactBody } from '../../core/http/redact.js';
import { loggedPath } from '../../core/http/request-log.js';
import { redactSecrets } from '../../core/redaction/secrets.js';
import { parseBody, type RecordedExchange } from './shadow.js';

export const recordingLineSchema = z.object({
  exchange: z.number().int(),
  at: z.string(),
  request: z.object({
    method: z.string(),
    path: z.string(),
    headers: z.record(z.string(), z.string()),
    body: z.unknown().optional(),
  }),
  response: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.unknown().optional() }),
});
/** One line of a recording. */
export type RecordingLine = z.infer<typeof recordingLineSchema>;

/** A JSON value with card data and secrets redacted. */
const redactedValue = (value: unknown): unknown =>
  value === undefined ? undefined : (JSON.parse(redactSecrets(JSON.stringify(redactBody(value)))) as unknown);

const redactedHeaders = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, redactSecrets(String(redactBody(value)))]));

/** The recording's line of one exchange (without its newline). */
export function recordingLine(exchange: RecordedExchange): string {
  const { request, response } = exchange;
  const at = request.path.indexOf('?');
  const line: RecordingLine = {
    exchange: exchange.exchange,
    at: exchange.at,
    request: {
      method: request.method,
      path: loggedPath(at < 0 ? request.path : request.path.slice(0, at), request.path),
      headers: redactedHeaders(request.headers),
      body: redactedValue(parseBody(request.body)),
    },
    response: { status: response.status, headers: redactedHeaders(response.headers), body: redactedValue(response.body) },
  };
  return JSON.stringify(line);
}
