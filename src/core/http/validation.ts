/**
 * The one validation of a request body, in /v4 and /_sandbox alike (`validBody`): the body
 * the body gate parsed (never parsed again) and the headers go through the schemas the
 * handler picks for this request (a /v4 write picks by the account's mode, after auth), and
 * every failure of both comes back in one 400 with all details. A valid body's unknown
 * fields are noted as warnings. A route documents its body from the same schema
 * (`openapiRoute`, or a registered component), and the router does not validate it a second
 * time. Paths and queries are validated by the router's hook (`router.ts`), in both APIs.
 */
import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import { badRequest, type ErrorDetail } from '../domain/errors.js';
import type { ApiEnv, BodyEnv } from './env.js';
import { zodDetails } from './errors.js';
import { unknownFields, warnUnknownFields } from './unknown-fields.js';
import { preparedBody } from './wire/absent-nulls.js';
import { compiledBodyPass } from './wire/body-pass.js';
import { parseBody } from './wire/fast-parse.js';
import { MAX_LOGGED_BODY } from './redact.js';

export interface RequestSchemas<T> {
  /** The body schema for this request. */
  body: z.ZodType<T>;
  /** When true, a request without a body is validated as `{}`; otherwise it is a 400. */
  bodyOptional?: boolean;
  /** Headers checked with the body (names in lower case). */
  headers?: z.ZodType;
}

/** What `requestValidation` needs: why a webhook URL may not receive webhooks (`Core.webhookTargetRefused`). */
export interface RequestValidationDeps {
  /** Why `url` may not receive webhooks, or null. */
  webhookTargetRefused(url: string): string | null;
}

/** Validates the parsed body (and headers) of `c`; returns the body's data or throws one 400 listing every failure. */
export type ValidRequest = <T>(c: Context<ApiEnv>, schemas: RequestSchemas<T>) => T;

/** The `validRequest` of one app: the schemas, then the webhook targets of a valid body. */
export function requestValidation({ webhookTargetRefused }: RequestValidationDeps): ValidRequest {
  return (c, schemas) => validRequest(c, schemas, webhookTargetRefused);
}

function validRequest<T>(
  c: Context<ApiEnv>,
  schemas: RequestSchemas<T>,
  webhookTargetRefused: RequestValidationDeps['webhookTargetRefused'],
): T {
  return validated(c, schemas, (data) => refusedWebhookTargets(webhookTargetRefused, data), true);
}

/** Validates the parsed body (and headers) of `c`; returns the body's data or throws one 400 listing every failure. */
export function validBody<T, E extends BodyEnv = BodyEnv>(c: Context<E>, schemas: RequestSchemas<T>): T {
  return validated(c, schemas, () => [], false);
}

/** `logged`: the request is one the request log keeps (/v4): a compiled pass also makes the log's text of the body. */
function validated<T, E extends BodyEnv>(
  c: Context<E>,
  schemas: RequestSchemas<T>,
  furtherDetails: (data: T) => ErrorDetail[],
  logged: boolean,
): T {
  const details: ErrorDetail[] = [];
  if (schemas.headers) {
    const input = c.req.header();
    const result = schemas.headers.safeParse(input);
    if (!result.success) details.push(...zodDetails(result.error, 'header', input));
  }
  const sent: unknown = c.get('body') ?? (schemas.bodyOptional ? {} : undefined);
  if (sent === undefined) {
    details.push({ type: 'missing', pointer: '', message: 'A JSON body is required', location: 'body' });
    throw badRequest('A JSON body is required', details);
  }
  // One walk, compiled from the schema: `null` on an optional field is the field left out (the
  // idempotency fingerprint, the request log and the go-live report read the same body), the
  // unknown fields found, the body's canonical text and, for the request log, its text with
  // card data redacted and whether it carries any.
  // A schema made for this request alone is not compiled: the walk beside it gives the same
  // body and unknown fields, and the canonical text is made when first asked for.
  const pass = compiledBodyPass(schemas.body);
  const given = c.get('body') !== undefined;
  const log = logged && given ? { maxString: MAX_LOGGED_BODY } : undefined;
  const passed = pass ? pass(sent, log) : { ...preparedBody(schemas.body, sent), canonical: undefined, logged: undefined };
  const { value: raw, unknown, canonical } = passed;
  if (given) {
    c.set('body', raw);
    const api = c as unknown as Context<ApiEnv>;
    if (canonical !== undefined) api.set('canonicalBody', canonical);
    if (passed.logged !== undefined) api.set('loggedBody', { body: raw, ...passed.logged });
  }
  const result = parseBody(schemas.body, raw);
  if (!result.success) details.push(...zodDetails(result.error, 'body', raw));
  else details.push(...furtherDetails(result.data));
  if (!result.success || details.length > 0) throw badRequest('Request failed validation', details);
  warnUnknownFields(c, () => unknown ?? unknownFields(raw, result.data));
  return result.data;
}

/** The webhook target URLs of a valid body (`notification_url`, `payment_method.webhooks_url`) that may not receive webhooks. */
function refusedWebhookTargets(webhookTargetRefused: RequestValidationDeps['webhookTargetRefused'], data: unknown): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const check = (url: unknown, pointer: string): void => {
    if (typeof url !== 'string') return;
    const reason = webhookTargetRefused(url);
    if (reason !== null) out.push({ type: 'value_error', pointer, message: `Webhook target refused: ${reason}`, location: 'body' });
  };
  if (data !== null && typeof data === 'object') {
    const body = data as { notification_url?: unknown; payment_method?: { webhooks_url?: unknown } | null };
    check(body.notification_url, '/notification_url');
    if (body.payment_method !== null && typeof body.payment_method === 'object')
      check(body.payment_method.webhooks_url, '/payment_method/webhooks_url');
  }
  return out;
}

/** An OpenAPI request body that refers to the registered component `name` (validated by `validRequest`, not by the router). */
export function documentedBody(name: string, required = true) {
  return { required, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } };
}
