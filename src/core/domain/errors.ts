/**
 * The API's error vocabulary, shared by every layer (spec: Errors). The domain throws
 * `SandboxError`; the HTTP layer turns it into the spec's envelope in one place
 * (`src/core/http/errors.ts`). Nothing here knows about HTTP frameworks.
 */

/** RFC 6901 JSON pointer to a place in a document (`details[].pointer`; a scenario or request body). */
export function jsonPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Where the failing property of a request lives (spec: details[].location). */
export type ErrorLocation = 'body' | 'query' | 'path' | 'header';

/**
 * One element of `details` (spec: Errors). `type` is one of the documented vocabulary in
 * README "Error details": missing, type_error, value_error, length_error, format_error,
 * enum_error, json_invalid, content_type_error, unknown_cursor, too_large.
 */
export interface ErrorDetail {
  type: string;
  pointer: string;
  message: string;
  location: ErrorLocation;
}

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'duplicate_record'
  | 'concurrent_request'
  | 'invalid_state'
  | 'request_too_large'
  | 'unsupported_media_type'
  | 'host_not_allowed'
  | 'cross_origin_request'
  | 'admin_token_required'
  | 'limit_reached'
  | 'request_header_too_large'
  | 'expectation_failed'
  | 'server_error'
  /** Faults a merchant asks for (X-Sandbox-Fault, scenario api_fault). */
  | 'service_unavailable'
  | 'too_many_requests'
  | 'gateway_timeout';

/** A failure with the spec's status, code, message and details. */
export class SandboxError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  /** Extra top-level envelope fields, e.g. `resource_id` on 409 duplicate_record, or how far a stopped clock advance moved. */
  readonly extra: Record<string, string | number | null>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    details: ErrorDetail[] = [],
    extra: Record<string, string | number | null> = {},
  ) {
    super(message);
    this.name = 'SandboxError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.extra = extra;
  }
}

export const badRequest = (message: string, details: ErrorDetail[] = []): SandboxError =>
  new SandboxError(400, 'bad_request', message, details);

export const notFound = (message: string): SandboxError => new SandboxError(404, 'not_found', message);

export const unauthorized = (message: string): SandboxError => new SandboxError(401, 'unauthorized', message);

export const forbidden = (message: string): SandboxError => new SandboxError(403, 'forbidden', message);

/** 409 `duplicate_record`: a record matching a unique constraint exists (spec: Errors). */
export const duplicateRecord = (message: string, resourceId: string): SandboxError =>
  new SandboxError(409, 'duplicate_record', message, [], { resource_id: resourceId });

/**
 * 409 `invalid_state` (sandbox extension): an illegal state transition, such as a second
 * outcome for a transaction that is already SUCCEEDED or FAILED. Nothing is changed or sent.
 */
export const invalidState = (message: string): SandboxError => new SandboxError(409, 'invalid_state', message);

/**
 * Whether `err` is the database's "disk full" (SQLite's `SQLITE_FULL`, e.g. `database or disk
 * is full`): a condition of the machine, not a bug, logged as one line without a stack.
 */
export function isStorageFull(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'SQLITE_FULL';
}
